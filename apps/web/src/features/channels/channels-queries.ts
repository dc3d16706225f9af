import { queryOptions } from '@tanstack/react-query';
import type { Channel } from '@gatehouse/shared';
import { api, ApiError, showApiError } from '../../api/client';
import { StorageKey, writeStoredJson } from '../../api/storage';

export const channelKeys = {
  all: ['channels'] as const,
  list: () => [...channelKeys.all, 'list'] as const,
  detail: (id: number) => [...channelKeys.all, 'detail', id] as const,
  knownModels: () => [...channelKeys.all, 'known-models'] as const,
  groups: () => ['groups'] as const,
};

export const listChannels = (page: number, signal?: AbortSignal) =>
  api.get<Channel[]>('/api/channel/', { params: { p: page }, signal });

export const searchChannels = (keyword: string, signal?: AbortSignal) =>
  api.get<Channel[]>('/api/channel/search', { params: { keyword }, signal });

export const channelQueryOptions = (id: number) =>
  queryOptions({ queryKey: channelKeys.detail(id), queryFn: () => api.get<Channel>(`/api/channel/${id}`) });

/** The map of channel type id → model names, also kept in the browser as channel_models. */
export const knownModelsQueryOptions = () =>
  queryOptions({
    queryKey: channelKeys.knownModels(),
    queryFn: async () => {
      const models = await api.get<Record<string, string[]>>('/api/models');
      writeStoredJson(StorageKey.channelModels, models);
      return models;
    },
    staleTime: 10 * 60_000,
  });

/** Group names for the form; quiet, because the form falls back to free entry when they cannot be read. */
export const groupsQueryOptions = () =>
  queryOptions({
    queryKey: channelKeys.groups(),
    queryFn: () => api.get<string[]>('/api/group/', { quiet: true }),
    retry: false,
  });

/** The fields the channel form sends; a blank key on edit keeps the stored key. */
export interface ChannelPayload {
  type: number;
  name: string;
  key: string;
  base_url: string;
  other: string;
  model_mapping: string;
  models: string;
  group: string;
  config: string;
  priority?: number;
  weight?: number;
}

export const createChannel = (channel: ChannelPayload) =>
  api.post<{ ids: number[] }>('/api/channel/', channel);

export const updateChannel = (channel: ChannelPayload & { id: number }) =>
  api.put<Channel>('/api/channel/', channel);

/** The list's in-place edits and the enable/disable button: one field with the id. */
export const updateChannelField = (
  change: { id: number } & ({ status: number } | { priority: number } | { weight: number }),
) => api.put<Channel>('/api/channel/', change);

export const deleteChannel = (id: number) => api.del<null>(`/api/channel/${id}/`);

export const deleteDisabledChannels = () => api.del<number>('/api/channel/disabled');

export interface ChannelTestOutcome {
  model: string;
  /** seconds */
  time: number;
  /** the model's reply, shortened by the server */
  reply: string;
}

/**
 * GET /api/channel/test/{id} answers success, message, time (seconds) and model. They may sit next to
 * `success` or inside `data`; both are read.
 */
export async function testChannel(id: number, model: string): Promise<ChannelTestOutcome> {
  type Answer = Partial<ChannelTestOutcome>;
  const answer = (await api.request<Answer>('GET', `/api/channel/test/${id}`, {
    params: model ? { model } : {},
  })) as Answer & { success: boolean; message: string; data?: Answer };
  if (!answer.success) {
    // `request` toasts HTTP errors itself; a failed test (HTTP 200) is toasted here, once.
    const error = new ApiError('failure', answer.message, answer.message, 200);
    showApiError(error);
    throw error;
  }
  return {
    model: answer.model ?? answer.data?.model ?? model,
    time: Number(answer.time ?? answer.data?.time ?? 0),
    reply: answer.message,
  };
}

export const testChannels = (scope: 'all' | 'disabled') =>
  api.get<null>('/api/channel/test', { params: { scope } });

/**
 * GET /api/channel/update_balance/{id} answers one-api's shape, `balance` beside `success`. A vendor without a
 * balance API, or one that fails, answers success: false with the reason, toasted here.
 */
export async function updateChannelBalance(id: number): Promise<number> {
  const answer = (await api.request<null>('GET', `/api/channel/update_balance/${id}`)) as {
    success: boolean;
    message: string;
    balance?: number;
  };
  if (!answer.success) {
    const error = new ApiError('failure', answer.message, answer.message, 200);
    showApiError(error);
    throw error;
  }
  return Number(answer.balance ?? 0);
}

export const updateAllChannelBalances = () => api.get<null>('/api/channel/update_balance');
