import { queryOptions } from '@tanstack/react-query';
import type { Redemption } from '@gatehouse/shared';
import { api } from '../../api/client';

export const redemptionKeys = {
  all: ['redemptions'] as const,
  list: () => [...redemptionKeys.all, 'list'] as const,
  detail: (id: number) => [...redemptionKeys.all, 'detail', id] as const,
};

export const listRedemptions = (page: number, signal?: AbortSignal) =>
  api.get<Redemption[]>('/api/redemption/', { params: { p: page }, signal });

export const searchRedemptions = (keyword: string, signal?: AbortSignal) =>
  api.get<Redemption[]>('/api/redemption/search', { params: { keyword }, signal });

export const redemptionQueryOptions = (id: number) =>
  queryOptions({
    queryKey: redemptionKeys.detail(id),
    queryFn: () => api.get<Redemption>(`/api/redemption/${id}`),
  });

/** POST answers the generated codes. */
export const createRedemptions = (input: { name: string; quota: number; count: number }) =>
  api.post<string[]>('/api/redemption/', input);

export const updateRedemption = (input: { id: number; name: string; quota: number }) =>
  api.put<Redemption>('/api/redemption/', input);

export const updateRedemptionStatus = (change: { id: number; status: number }) =>
  api.put<Redemption>('/api/redemption/', change, { params: { status_only: true } });

export const deleteRedemption = (id: number) => api.del<null>(`/api/redemption/${id}/`);
