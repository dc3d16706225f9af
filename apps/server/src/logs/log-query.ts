import {
  LOG_EXPORT_MAX_ROWS,
  LogType,
  MAX_ROW_ID,
  type Log,
  type LogQuery,
  type LogRetry,
} from '@gatehouse/shared';
import type { SelectQueryBuilder } from 'kysely';
import { readPage, type Page } from '../db/paging';
import { HttpError } from '../http/envelope';
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
  if (filters.request_id) filtered = filtered.where('request_id', '=', filters.request_id);
  if (filters.start_timestamp) filtered = filtered.where('created_at', '>=', filters.start_timestamp);
  if (filters.end_timestamp) filtered = filtered.where('created_at', '<=', filters.end_timestamp);
  return filtered;
}

/** Where a page ends: the (created_at, id) of its last row. The next page holds the rows strictly older. */
export interface LogCursor {
  createdAt: number;
  id: number;
}

/** Opaque to callers: base64url of "created_at:id". */
export function encodeLogCursor(cursor: LogCursor): string {
  return Buffer.from(`${cursor.createdAt}:${cursor.id}`).toString('base64url');
}

/** A cursor this list did not give answers 400 naming the field; nothing else is read from it. */
export function decodeLogCursor(text: string): LogCursor {
  const match = /^(\d{1,15}):(\d{1,15})$/.exec(
    /^[A-Za-z0-9_-]+$/.test(text) ? Buffer.from(text, 'base64url').toString('latin1') : '',
  );
  // An id no row can have would fail the query on PostgreSQL and MySQL (32-bit ids): refused like any other.
  if (!match || Number(match[2]) > MAX_ROW_ID) {
    throw new HttpError(400, 'cursor is not one this list gave: pass the next_cursor of the previous page');
  }
  return { createdAt: Number(match[1]), id: Number(match[2]) };
}

/**
 * Rows strictly after the cursor in the list's order (created_at desc, id desc). Spelled so every database
 * reads it as a range on the indexes that end in (created_at, id): `created_at <= c` bounds the scan, the
 * rest drops the cursor's own second.
 */
export function afterLogCursor<Output>(
  query: SelectQueryBuilder<Database, 'logs', Output>,
  cursor: LogCursor | null,
): SelectQueryBuilder<Database, 'logs', Output> {
  if (!cursor) return query;
  return query
    .where('created_at', '<=', cursor.createdAt)
    .where((eb) =>
      eb.or([
        eb('created_at', '<', cursor.createdAt),
        eb.and([eb('created_at', '=', cursor.createdAt), eb('id', '<', cursor.id)]),
      ]),
    );
}

/** The list's order: newest first, ties by id so a cursor names one place. */
export function orderLogs<Output>(
  query: SelectQueryBuilder<Database, 'logs', Output>,
): SelectQueryBuilder<Database, 'logs', Output> {
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc');
}

function readRetries(text: string): LogRetry[] {
  if (!text) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? (parsed as LogRetry[]) : [];
  } catch {
    return [];
  }
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
    audio_input_tokens: row.audio_input_tokens,
    image_input_tokens: row.image_input_tokens,
    audio_output_tokens: row.audio_output_tokens,
    image_output_tokens: row.image_output_tokens,
    inbound_protocol: row.inbound_protocol,
    // PostgreSQL's driver answers double precision as numbers, MySQL's may as text.
    model_ratio: Number(row.model_ratio),
    completion_ratio: Number(row.completion_ratio),
    cache_read_ratio: Number(row.cache_read_ratio),
    cache_write_ratio: Number(row.cache_write_ratio),
    audio_input_ratio: Number(row.audio_input_ratio),
    image_input_ratio: Number(row.image_input_ratio),
    audio_output_ratio: Number(row.audio_output_ratio),
    image_output_ratio: Number(row.image_output_ratio),
    group_ratio: Number(row.group_ratio),
    call_price: Number(row.call_price),
    first_token_ms: row.first_token_ms,
    retries: readRetries(row.retries),
  };
}
