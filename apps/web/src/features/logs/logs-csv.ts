import { formatLogQuota, formatTimestamp, type Log, type QuotaDisplay } from '@gatehouse/shared';

/**
 * A spreadsheet would run a cell that starts with = + - @ as a formula; log text comes partly from users (key
 * names, model names), so such cells get a leading apostrophe (OWASP "CSV injection").
 */
function csvCell(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export interface LogCsvOptions {
  headers: string[];
  typeLabel: (type: number) => string;
  quotaDisplay: QuotaDisplay;
  isAdmin: boolean;
}

export type LogCsvHeader =
  | 'time'
  | 'type'
  | 'username'
  | 'tokenName'
  | 'modelName'
  | 'isStream'
  | 'promptTokens'
  | 'completionTokens'
  | 'cacheReadTokens'
  | 'cacheWriteTokens'
  | 'reasoningTokens'
  | 'quota'
  | 'amount'
  | 'elapsedTime'
  | 'inboundProtocol'
  | 'modelRatio'
  | 'completionRatio'
  | 'cacheReadRatio'
  | 'cacheWriteRatio'
  | 'groupRatio'
  | 'channel'
  | 'content';

export function logCsvHeaders(isAdmin: boolean): LogCsvHeader[] {
  const headers: LogCsvHeader[] = [
    'time',
    'type',
    'username',
    'tokenName',
    'modelName',
    'isStream',
    'promptTokens',
    'completionTokens',
    'cacheReadTokens',
    'cacheWriteTokens',
    'reasoningTokens',
    'quota',
    'amount',
    'elapsedTime',
    'inboundProtocol',
    'modelRatio',
    'completionRatio',
    'cacheReadRatio',
    'cacheWriteRatio',
    'groupRatio',
  ];
  return isAdmin ? [...headers, 'channel', 'content'] : [...headers, 'content'];
}

/** CSV of log rows, with a BOM so spreadsheet programs read UTF-8 (Chinese model names, content). */
export function buildLogsCsv(logs: Log[], options: LogCsvOptions): string {
  const lines = logs.map((log) =>
    [
      formatTimestamp(log.created_at),
      options.typeLabel(log.type),
      log.username,
      log.token_name,
      log.model_name,
      log.is_stream ? 'true' : 'false',
      log.prompt_tokens,
      log.completion_tokens,
      log.cache_read_tokens,
      log.cache_write_tokens,
      log.reasoning_tokens,
      log.quota,
      formatLogQuota(log.quota, options.quotaDisplay),
      log.elapsed_time,
      // The counts and ratios a charge was computed from, so an export can be checked row by row.
      log.inbound_protocol,
      log.model_ratio,
      log.completion_ratio,
      log.cache_read_ratio,
      log.cache_write_ratio,
      log.group_ratio,
      ...(options.isAdmin ? [log.channel] : []),
      log.content,
    ]
      .map(csvCell)
      .join(','),
  );
  return `\uFEFF${[options.headers.map(csvCell).join(','), ...lines].join('\r\n')}\r\n`;
}
