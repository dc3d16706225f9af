import { queryOptions } from '@tanstack/react-query';
import type { Log, LogPageEnvelope, LogStat } from '@gatehouse/shared';
import { api, ApiError, buildUrl, showApiError, type QueryParams } from '../../api/client';

/** Admins read everyone's log (with username and channel filters), others their own. */
const base = (isAdmin: boolean) => (isAdmin ? '/api/log' : '/api/log/self');

export const logKeys = {
  all: ['logs'] as const,
  list: (isAdmin: boolean, params: QueryParams) => [...logKeys.all, 'list', { isAdmin, ...params }] as const,
  stat: (isAdmin: boolean, params: QueryParams) => [...logKeys.all, 'stat', { isAdmin, ...params }] as const,
};

/**
 * The cursor each page hands over, by filter and page: the list loads its pages in order, so page n + 1 is
 * read after page n's last row by cursor (as fast as the first page however deep) instead of by offset.
 */
export type LogCursors = Map<string, string>;

const cursorKey = (isAdmin: boolean, params: QueryParams, page: number) =>
  `${JSON.stringify({ isAdmin, ...params })}#${page}`;

export async function listLogs(
  isAdmin: boolean,
  params: QueryParams,
  page: number,
  cursors: LogCursors,
  signal?: AbortSignal,
): Promise<Log[]> {
  const cursor = page > 0 ? cursors.get(cursorKey(isAdmin, params, page)) : undefined;
  const envelope = (await api.request<Log[]>('GET', `${base(isAdmin)}/`, {
    params: cursor ? { ...params, cursor } : { ...params, p: page },
    signal,
  })) as LogPageEnvelope<Log[]>;
  if (!envelope.success) {
    const error = new ApiError('failure', envelope.message, envelope.message, 200);
    showApiError(error);
    throw error;
  }
  if (envelope.next_cursor) cursors.set(cursorKey(isAdmin, params, page + 1), envelope.next_cursor);
  return envelope.data ?? [];
}

/**
 * The streamed CSV export of every row the filters match (`/api/log/export`, or `/api/log/self/export` for
 * the own rows): the server writes it a batch at a time, so it has no row cap.
 */
export const logExportUrl = (isAdmin: boolean, params: QueryParams) =>
  buildUrl(`${base(isAdmin)}/export`, params);

export const logStatQueryOptions = (isAdmin: boolean, params: QueryParams, enabled: boolean) =>
  queryOptions({
    queryKey: logKeys.stat(isAdmin, params),
    queryFn: ({ signal }) => api.get<LogStat>(`${base(isAdmin)}/stat`, { params, signal }),
    enabled,
  });
