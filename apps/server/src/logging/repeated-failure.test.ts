import { describe, expect, it } from 'vitest';
import { RepeatedFailureLog } from './repeated-failure';

describe('RepeatedFailureLog', () => {
  it('lets the first failure through, counts those that follow within the interval, then reports them', () => {
    let now = 1_000;
    const failures = new RepeatedFailureLog(10_000, () => now);
    expect(failures.take()).toEqual({ shouldLog: true, suppressed: 0 });
    for (let index = 0; index < 3; index += 1) {
      now += 1000;
      expect(failures.take()).toEqual({ shouldLog: false, suppressed: 0 });
    }
    now = 11_000;
    expect(failures.take()).toEqual({ shouldLog: true, suppressed: 3 });
    now = 30_000;
    expect(failures.take()).toEqual({ shouldLog: true, suppressed: 0 });
  });
});
