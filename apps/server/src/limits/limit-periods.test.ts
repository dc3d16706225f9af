import { describe, expect, it } from 'vitest';
import { currentBudgetPeriod, currentMinute } from './limit-periods';

// The test project runs with the process's TZ; these expectations are written in local time like the code.
const at = (year: number, month: number, day: number, hour = 0, minute = 0) =>
  new Date(year, month - 1, day, hour, minute).getTime();

describe('limit windows', () => {
  it('counts RPM and TPM in clock-aligned minutes', () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 45, 500);
    expect(currentMinute(now)).toEqual({ id: Math.floor(now / 60_000), remainingMs: 14_500 });
    expect(currentMinute(now + 14_500).id).toBe(currentMinute(now).id + 1);
  });

  it('starts a day at midnight, a week on Monday and a month on the 1st, in local time', () => {
    // Wednesday 2026-11-25 15:30
    const now = at(2026, 11, 25, 15, 30);
    expect(currentBudgetPeriod('daily', now)).toEqual({
      id: at(2026, 11, 25),
      remainingMs: at(2026, 11, 26) - now,
    });
    expect(currentBudgetPeriod('weekly', now)).toEqual({
      id: at(2026, 11, 23),
      remainingMs: at(2026, 11, 30) - now,
    });
    expect(currentBudgetPeriod('monthly', now)).toEqual({
      id: at(2026, 11, 1),
      remainingMs: at(2026, 12, 1) - now,
    });
  });

  it('treats a Sunday as the last day of its week and December as ending at New Year', () => {
    const sunday = at(2026, 11, 29, 23, 59);
    expect(currentBudgetPeriod('weekly', sunday).id).toBe(at(2026, 11, 23));
    const december = at(2026, 12, 31, 10);
    expect(currentBudgetPeriod('monthly', december).remainingMs).toBe(at(2027, 1, 1) - december);
  });
});
