import { LOG_EXPORT_MAX_ROWS, LogType, type Log, type LogQuery } from '@gatehouse/shared';
import type { SelectQueryBuilder } from 'kysely';
import { readPage, type Page } from '../db/paging';
import type { Database, LogRow } from '../db/schema';

export type LogScope = { kind: 'all' } | { kind: 'user'; userId: number };

/**
 * The filters of the log list and its stat, applied alike. A user's own view is scoped by user id and ignores
 * the admin-only username and channel filters.
 */
export function applyLogFilters<Output>(
  query: SelectQueryBuilder<Database, 'logs', Output>,
  filters: LogQuery,
  scope: LogScope,
): SelectQueryBuilder<Database, 'logs', Output> {
  let filtered = query;
  if (scope.kind === 'user') {
    filtered = filtered.where('user_id', '=', scope.userId);
  } else {
    if (filters.username) filtered = filtered.where('username', '=', filters.username);
    if (filters.channel) filtered = filtered.where('channel_id', '=', filters.channel);
  }
  if (filters.type) filtered = filtered.where('type', '=', filters.type);
  if (filters.token_name) filtered = filtered.where('token_name', '=', filters.token_name);
  if (filters.model_name) filtered = filtered.where('model_name', '=', filters.model_name);
  if (filters.start_timestamp) filtered = filtered.where('created_at', '>=', filters.start_timestamp);
  if (filters.end_timestamp) filtered = filtered.where('created_at', '<=', filters.end_timestamp);
  return filtered;
}

/** The stat sums what was spent unless one log type is chosen: top-ups are not spending. */
export function statLogType(filters: LogQuery): number {
  return filters.type ? filters.type : LogType.consume;
}

/** `num` asks for an export of up to 10 000 rows; otherwise the usual page (10 by default, at most 100). */
export function readLogPage(filters: LogQuery): Page {
  if (filters.num) return readPage({ p: filters.p, size: filters.num }, LOG_EXPORT_MAX_ROWS);
  return readPage(filters);
}

/** The row as the API answers it: `channel` for the stored `channel_id`, `is_stream` as a boolean. */
export function toLog(row: LogRow): Log {
  return {
    id: row.id,
    user_id: row.user_id,
    username: row.username,
    type: row.type,
    content: row.content,
    token_name: row.token_name,
    model_name: row.model_name,
    prompt_tokens: row.prompt_tokens,
    completion_tokens: row.completion_tokens,
    quota: Number(row.quota),
    channel: row.channel_id,
    elapsed_time: row.elapsed_time,
    is_stream: row.is_stream === 1,
    created_at: Number(row.created_at),
    request_id: row.request_id,
    cache_read_tokens: row.cache_read_tokens,
    cache_write_tokens: row.cache_write_tokens,
    reasoning_tokens: row.reasoning_tokens,
    inbound_protocol: row.inbound_protocol,
    // PostgreSQL's driver answers double precision as numbers, MySQL's may as text.
    model_ratio: Number(row.model_ratio),
    completion_ratio: Number(row.completion_ratio),
    cache_read_ratio: Number(row.cache_read_ratio),
    cache_write_ratio: Number(row.cache_write_ratio),
    group_ratio: Number(row.group_ratio),
    call_price: Number(row.call_price),
  };
}
