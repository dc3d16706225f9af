import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { LatestRelease, OptionEntry } from '@gatehouse/shared';
import { api } from '../../api/client';

export type OptionValues = Record<string, string>;

export const optionKeys = {
  all: ['options'] as const,
};

/** GET /api/option/ as a key → value map (secrets are never answered). */
export const optionsQueryOptions = () =>
  queryOptions({
    queryKey: optionKeys.all,
    queryFn: async () => {
      const entries = await api.get<OptionEntry[]>('/api/option/');
      return Object.fromEntries(entries.map((entry) => [entry.key, entry.value])) as OptionValues;
    },
  });

/** Saves one option; the caller shows the server's message itself when `quiet`. */
export const saveOption = (key: string, value: string, quiet = false) =>
  api.put<OptionEntry | undefined>('/api/option/', { key, value }, { quiet });

/** A saved option can change branding and status flags: both are read again. */
export function refreshAfterOptionSave(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: optionKeys.all }),
    queryClient.invalidateQueries({ queryKey: ['status'] }),
  ]);
}

export const getLatestRelease = () => api.get<LatestRelease>('/api/release/latest');

export const clearLogsBefore = (targetTimestamp: number) =>
  api.del<number>('/api/log/', { params: { target_timestamp: targetTimestamp }, quiet: true });

export const generateAccessToken = () => api.get<string>('/api/user/token');
export const getAffCode = () => api.get<string>('/api/user/aff');
export const deleteSelf = () => api.del<null>('/api/user/self');

export const availableModelsQueryOptions = () =>
  queryOptions({
    queryKey: ['users', 'self', 'available_models'],
    queryFn: () => api.get<Array<{ model: string }>>('/api/user/available_models'),
  });
