import { Readable } from 'node:stream';
import type { LogQuery } from '@gatehouse/shared';
import type { Db } from '../db/database';
import type { LogRow } from '../db/schema';
import { afterLogCursor, applyLogFilters, orderLogs, type LogCursor, type LogScope } from './log-query';

/** Rows read per query while exporting: one batch is all the export ever holds in memory. */
export const LOG_EXPORT_BATCH_ROWS = 1000;

const COLUMNS: Array<[header: string, value: (row: LogRow) => string | number]> = [
  ['id', (row) => row.id],
  ['time', (row) => new Date(Number(row.created_at) * 1000).toISOString()],
  ['type', (row) => row.type],
  ['username', (row) => row.username],
  ['token_name', (row) => row.token_name],
  ['model_name', (row) => row.model_name],
  ['channel', (row) => row.channel_id],
  ['is_stream', (row) => row.is_stream],
  ['prompt_tokens', (row) => row.prompt_tokens],
  ['completion_tokens', (row) => row.completion_tokens],
  ['cache_read_tokens', (row) => row.cache_read_tokens],
  ['cache_write_tokens', (row) => row.cache_write_tokens],
  ['reasoning_tokens', (row) => row.reasoning_tokens],
  ['audio_input_tokens', (row) => row.audio_input_tokens],
  ['image_input_tokens', (row) => row.image_input_tokens],
  ['audio_output_tokens', (row) => row.audio_output_tokens],
  ['image_output_tokens', (row) => row.image_output_tokens],
  ['quota', (row) => Number(row.quota)],
  ['elapsed_time_ms', (row) => row.elapsed_time],
  ['first_token_ms', (row) => row.first_token_ms],
  ['inbound_protocol', (row) => row.inbound_protocol],
  ['model_ratio', (row) => Number(row.model_ratio)],
  ['completion_ratio', (row) => Number(row.completion_ratio)],
  ['cache_read_ratio', (row) => Number(row.cache_read_ratio)],
  ['cache_write_ratio', (row) => Number(row.cache_write_ratio)],
  ['audio_input_ratio', (row) => Number(row.audio_input_ratio)],
  ['image_input_ratio', (row) => Number(row.image_input_ratio)],
  ['audio_output_ratio', (row) => Number(row.audio_output_ratio)],
  ['image_output_ratio', (row) => Number(row.image_output_ratio)],
  ['group_ratio', (row) => Number(row.group_ratio)],
  ['call_price', (row) => Number(row.call_price)],
  ['request_id', (row) => row.request_id],
  ['content', (row) => row.content],
];

/**
 * A spreadsheet runs a cell starting with = + - @ as a formula, and log text comes partly from users (key and
 * model names): such cells get a leading apostrophe. Cells with quotes, commas or line breaks are quoted.
 */
function csvCell(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvLine = (row: LogRow) => COLUMNS.map(([, value]) => csvCell(value(row))).join(',') + '\r\n';

/**
 * Every log the filters match as CSV, newest first, read a batch at a time by (created_at, id) and handed to
 * the reply as it goes: the next batch is read only when the client has taken the previous one, so memory
 * stays one batch whatever the size of the export, and a slow client slows the reads instead of piling rows up.
 */
export function streamLogCsv(db: Db, filters: LogQuery, scope: LogScope): Readable {
  async function* lines(): AsyncGenerator<string> {
    yield COLUMNS.map(([header]) => header).join(',') + '\r\n';
    let cursor: LogCursor | null = null;
    for (;;) {
      const rows: LogRow[] = await orderLogs(
        afterLogCursor(applyLogFilters(db.selectFrom('logs').selectAll(), filters, scope), cursor),
      )
        .limit(LOG_EXPORT_BATCH_ROWS)
        .execute();
      if (rows.length === 0) return;
      yield rows.map(csvLine).join('');
      if (rows.length < LOG_EXPORT_BATCH_ROWS) return;
      const last = rows[rows.length - 1]!;
      cursor = { createdAt: Number(last.created_at), id: last.id };
    }
  }
  // One batch's text waits in the stream at most; the socket's own buffer holds the rest.
  return Readable.from(lines(), { objectMode: false, highWaterMark: 1 });
}
