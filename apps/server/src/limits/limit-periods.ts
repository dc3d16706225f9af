import type { BudgetPeriod } from '@gatehouse/shared';

const MINUTE_MS = 60_000;

export interface LimitWindow {
  /** names the window in counter keys: every node computes the same one from the clock */
  id: number;
  /** until the next window starts */
  remainingMs: number;
}

/**
 * RPM and TPM count in fixed 60-second windows aligned to the clock (12:00:00–12:00:59.999), not from each
 * key's first request: every node agrees on the window without asking another, and Redis needs one counter per
 * key and minute. The price is the usual fixed-window edge: up to twice the limit can pass in the 60 seconds
 * around a minute boundary, never more than the limit inside one window.
 */
export function currentMinute(now = Date.now()): LimitWindow {
  const id = Math.floor(now / MINUTE_MS);
  return { id, remainingMs: (id + 1) * MINUTE_MS - now };
}

/**
 * The budget period `now` falls in, in the server's local time zone (the process's TZ environment variable):
 * a day from midnight, a week from Monday midnight, a month from the 1st. The id is the start's epoch
 * milliseconds.
 */
export function currentBudgetPeriod(period: Exclude<BudgetPeriod, ''>, now = Date.now()): LimitWindow {
  const today = new Date(now);
  const year = today.getFullYear();
  const month = today.getMonth();
  const day = today.getDate();
  let start: Date;
  let end: Date;
  if (period === 'daily') {
    start = new Date(year, month, day);
    end = new Date(year, month, day + 1);
  } else if (period === 'weekly') {
    const sinceMonday = (today.getDay() + 6) % 7;
    start = new Date(year, month, day - sinceMonday);
    end = new Date(year, month, day - sinceMonday + 7);
  } else {
    start = new Date(year, month, 1);
    end = new Date(year, month + 1, 1);
  }
  return { id: start.getTime(), remainingMs: end.getTime() - now };
}
