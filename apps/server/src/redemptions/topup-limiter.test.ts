import { describe, expect, it } from 'vitest';
import { createMemoryTopupLimiter } from './topup-limiter';

describe('createMemoryTopupLimiter', () => {
  it('blocks a user after maxFailures within the window, per user, until the oldest failure ages out', async () => {
    let now = 0;
    const limiter = createMemoryTopupLimiter({ maxFailures: 3, windowSeconds: 60, now: () => now });
    for (const at of [0, 10_000, 20_000]) {
      now = at;
      expect(await limiter.retryAfterSeconds(7)).toBe(0);
      await limiter.recordFailure(7);
    }
    expect(await limiter.retryAfterSeconds(7)).toBe(40);
    expect(await limiter.retryAfterSeconds(8)).toBe(0);
    now = 59_999;
    expect(await limiter.retryAfterSeconds(7)).toBe(1);
    now = 60_000;
    expect(await limiter.retryAfterSeconds(7)).toBe(0);
  });
});
