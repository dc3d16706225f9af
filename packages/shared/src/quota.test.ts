import { describe, expect, it } from 'vitest';
import { formatCompactNumber, formatLogQuota, formatRemainingQuota } from './quota';

describe('quota display', () => {
  it.each([
    [9999, '9999'],
    [10_000, '10k'],
    [123_456, '123.5k'],
    [1_000_000, '1M'],
    [2_500_000_000, '2.5B'],
  ])('compact %d → %s', (value, expected) => {
    expect(formatCompactNumber(value)).toBe(expected);
  });

  it('shows dollars with 2 decimals for balances and 6 for log rows', () => {
    const display = { displayInCurrency: true, quotaPerUnit: 500_000 };
    expect(formatRemainingQuota(750_000, display)).toBe('$1.50');
    expect(formatLogQuota(3, display)).toBe('$0.000006');
  });

  it('falls back to the compact number when currency display is off', () => {
    expect(formatRemainingQuota(750_000, { displayInCurrency: false, quotaPerUnit: 500_000 })).toBe('750k');
  });
});
