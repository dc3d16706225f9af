import { queryOptions } from '@tanstack/react-query';
import { LOG_EXPORT_MAX_ROWS, type Log, type LogStat } from '@gatehouse/shared';
import { api, type QueryParams } from '../../api/client';

/** Admins read everyone's log (with username and channel filters), others their own. */
const base = (isAdmin: boolean) => (isAdmin ? '/api/log' : '/api/log/self');

export const logKeys = {
  all: ['logs'] as const,
  list: (isAdmin: boolean, params: QueryParams) => [...logKeys.all, 'list', { isAdmin, ...params }] as const,
  stat: (isAdmin: boolean, params: QueryParams) => [...logKeys.all, 'stat', { isAdmin, ...params }] as const,
};

export const listLogs = (isAdmin: boolean, params: QueryParams, page: number, signal?: AbortSignal) =>
  api.get<Log[]>(`${base(isAdmin)}/`, { params: { ...params, p: page }, signal });

/** The rows of a CSV export: the newest 10 000 of the filter. */
export const listLogsForExport = (isAdmin: boolean, params: QueryParams) =>
  api.get<Log[]>(`${base(isAdmin)}/`, { params: { ...params, p: 0, num: LOG_EXPORT_MAX_ROWS } });

export const logStatQueryOptions = (isAdmin: boolean, params: QueryParams, enabled: boolean) =>
  queryOptions({
    queryKey: logKeys.stat(isAdmin, params),
    queryFn: ({ signal }) => api.get<LogStat>(`${base(isAdmin)}/stat`, { params, signal }),
    enabled,
  });
