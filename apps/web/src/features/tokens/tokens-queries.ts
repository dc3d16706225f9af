import { queryOptions } from '@tanstack/react-query';
import type { BudgetPeriod, ModelLimits, Token, TokenOrder } from '@gatehouse/shared';
import { api } from '../../api/client';

export const tokenKeys = {
  all: ['tokens'] as const,
  list: (order: TokenOrder) => [...tokenKeys.all, 'list', { order }] as const,
  detail: (id: number) => [...tokenKeys.all, 'detail', id] as const,
};

export const listTokens = (page: number, order: TokenOrder, signal?: AbortSignal) =>
  api.get<Token[]>('/api/token/', { params: { p: page, order }, signal });

export const searchTokens = (keyword: string, signal?: AbortSignal) =>
  api.get<Token[]>('/api/token/search', { params: { keyword }, signal });

export const tokenQueryOptions = (id: number) =>
  queryOptions({ queryKey: tokenKeys.detail(id), queryFn: () => api.get<Token>(`/api/token/${id}`) });

/** The fields the key form sends. */
export interface TokenPayload {
  name: string;
  remain_quota: number;
  unlimited_quota: boolean;
  /** seconds since epoch, -1 = never */
  expired_time: number;
  models: string;
  subnet: string;
  rpm_limit: number;
  tpm_limit: number;
  max_parallel_requests: number;
  budget: number;
  budget_period: BudgetPeriod;
  model_limits: ModelLimits;
}

export const createToken = (token: TokenPayload) => api.post<Token>('/api/token/', token);

export const updateToken = (token: TokenPayload & { id: number }) => api.put<Token>('/api/token/', token);

export const updateTokenStatus = (change: { id: number; status: number }) =>
  api.put<Token>('/api/token/', change, { params: { status_only: true } });

export const deleteToken = (id: number) => api.del<null>(`/api/token/${id}/`);
