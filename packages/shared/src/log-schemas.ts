import { z } from 'zod';
import { LogType } from './enums';
import { queryPagingNumber, queryRowId, queryTimestamp, queryWholeNumber } from './query-schemas';

/** An export holds at most 10 000 rows; the console's default window ends one hour from now. */
export const LOG_EXPORT_MAX_ROWS = 10_000;
export const LOG_DEFAULT_WINDOW_AFTER_NOW_SECONDS = 3600;
/** Log clearing defaults to 30 days back. */
export const LOG_CLEAR_DEFAULT_SECONDS = 2_592_000;

const optionalText = z.preprocess(
  (value) => (typeof value === 'string' ? value.trim() : value),
  z.string().max(255).optional(),
);

const logTypes: number[] = Object.values(LogType);

/** GET /api/log/ and /api/log/self/ (and their /stat): username and channel count only for admins. */
export const logQuerySchema = z.object({
  p: queryPagingNumber('p'),
  size: queryPagingNumber('size'),
  num: queryPagingNumber('num'),
  type: queryWholeNumber('type', { maximum: Number.MAX_SAFE_INTEGER, aboveMaximum: 'clamp' }).refine(
    (value) => value === undefined || logTypes.includes(value),
    'type must be 0 (all), 1 (top-up), 2 (consumption), 3 (management), 4 (system) or 5 (error)',
  ),
  username: optionalText,
  token_name: optionalText,
  model_name: optionalText,
  start_timestamp: queryTimestamp('start_timestamp'),
  end_timestamp: queryTimestamp('end_timestamp'),
  channel: queryRowId('channel'),
  /** one request's entries: the X-Request-Id the relay answered (the playground reads its charge this way) */
  request_id: optionalText,
  /** keyset paging: the `next_cursor` of the previous page; when given, `p` is ignored */
  cursor: z.string().max(200, 'cursor is not one this list gave').optional(),
});
export type LogQuery = z.infer<typeof logQuerySchema>;

export const logClearQuerySchema = z.object({
  target_timestamp: queryTimestamp('target_timestamp').pipe(
    z.number({ error: 'target_timestamp is required (seconds since epoch)' }),
  ),
});

/** A page of logs read by cursor: the envelope's `next_cursor` is null on the last page. */
export interface LogPageEnvelope<T> {
  success: boolean;
  message: string;
  data?: T;
  next_cursor?: string | null;
}

export interface LogStat {
  quota: number;
}
