import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { expiryFromNow, formatExpiry, parseExpiry } from './token-expiry';

describe('token expiry text', () => {
  it('is blank for never, and round-trips a time', () => {
    expect(formatExpiry(-1)).toBe('');
    expect(parseExpiry('')).toBe(-1);
    const seconds = dayjs('2031-05-06 07:08:09').unix();
    expect(formatExpiry(seconds)).toBe('2031-05-06 07:08:09');
    expect(parseExpiry(' 2031-05-06 07:08:09 ')).toBe(seconds);
  });

  it('accepts minutes or a bare date, and refuses anything else', () => {
    expect(parseExpiry('2031-05-06 07:08')).toBe(dayjs('2031-05-06 07:08:00').unix());
    expect(parseExpiry('2031-05-06')).toBe(dayjs('2031-05-06 00:00:00').unix());
    for (const text of ['tomorrow', '2031-13-01', '2031-02-30 10:00:00', '06/05/2031']) {
      expect(parseExpiry(text)).toBeNull();
    }
  });

  it('computes the quick buttons from now', () => {
    const now = dayjs('2030-01-01 12:00:00').valueOf();
    expect(expiryFromNow(86400, now)).toBe('2030-01-02 12:00:00');
    expect(expiryFromNow(30 * 86400, now)).toBe('2030-01-31 12:00:00');
    expect(expiryFromNow(null, now)).toBe('');
  });
});
