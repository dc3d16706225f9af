import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import { NEVER_EXPIRES } from '@gatehouse/shared';

dayjs.extend(customParseFormat);

export const EXPIRY_FORMAT = 'YYYY-MM-DD HH:mm:ss';
const ACCEPTED_FORMATS = [EXPIRY_FORMAT, 'YYYY-MM-DD HH:mm', 'YYYY-MM-DD'];

/** Quick-expiry buttons; a month is 30 days. */
export const quickExpiries = [
  { label: 'never', seconds: null },
  { label: 'month', seconds: 30 * 24 * 3600 },
  { label: 'day', seconds: 24 * 3600 },
  { label: 'hour', seconds: 3600 },
  { label: 'minute', seconds: 60 },
] as const;

/** The text the expiry field shows: blank for never. */
export function formatExpiry(expiredTime: number): string {
  return expiredTime === NEVER_EXPIRES ? '' : dayjs.unix(expiredTime).format(EXPIRY_FORMAT);
}

export function expiryFromNow(seconds: number | null, now = Date.now()): string {
  return seconds === null ? '' : dayjs(now + seconds * 1000).format(EXPIRY_FORMAT);
}

/** Epoch seconds for the typed text (blank = never), or null when it is not a date-time. */
export function parseExpiry(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return NEVER_EXPIRES;
  const parsed = dayjs(trimmed, ACCEPTED_FORMATS, true);
  return parsed.isValid() ? parsed.unix() : null;
}
