import dayjs from 'dayjs';
import { LOG_DEFAULT_WINDOW_AFTER_NOW_SECONDS, LogType } from '@gatehouse/shared';
import type { QueryParams } from '../../api/client';

export const LOG_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

export interface LogFilters {
  /** LogType as text for the select; '0' = all */
  type: string;
  /** 'YYYY-MM-DD HH:mm:ss' or null for no bound */
  start: string | null;
  end: string | null;
  tokenName: string;
  modelName: string;
  /** admin only */
  username: string;
  channel: string;
}

/** The default window runs from epoch 0 to one hour from now. */
export const defaultLogFilters = (now = Date.now()): LogFilters => ({
  type: String(LogType.all),
  start: dayjs(0).format(LOG_TIME_FORMAT),
  end: dayjs(now + LOG_DEFAULT_WINDOW_AFTER_NOW_SECONDS * 1000).format(LOG_TIME_FORMAT),
  tokenName: '',
  modelName: '',
  username: '',
  channel: '',
});

const toSeconds = (text: string | null): number | undefined => {
  if (!text) return undefined;
  const parsed = dayjs(text);
  return parsed.isValid() ? Math.max(0, parsed.unix()) : undefined;
};

/** The log list's query; the self endpoint gets no username or channel. Blank fields are left out. */
export function toLogQueryParams(filters: LogFilters, isAdmin: boolean): QueryParams {
  const channel = Number(filters.channel.trim());
  return {
    type: Number(filters.type) || 0,
    token_name: filters.tokenName.trim() || undefined,
    model_name: filters.modelName.trim() || undefined,
    start_timestamp: toSeconds(filters.start),
    end_timestamp: toSeconds(filters.end),
    ...(isAdmin
      ? {
          username: filters.username.trim() || undefined,
          channel: Number.isInteger(channel) && channel > 0 ? channel : undefined,
        }
      : {}),
  };
}
