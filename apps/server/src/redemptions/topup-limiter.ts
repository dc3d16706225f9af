/**
 * Limits failed top-up attempts per user, so redemption codes cannot be guessed by brute force.
 * In-process now; an implementation over Redis (shared by every instance) can replace it behind this interface.
 */
export interface TopupLimiter {
  /** Seconds until the user may try again, or 0 when it may try now. */
  retryAfterSeconds(userId: number): Promise<number>;
  recordFailure(userId: number): Promise<void>;
}

export interface TopupLimiterOptions {
  maxFailures: number;
  windowSeconds: number;
  now?: () => number;
}

export const DEFAULT_TOPUP_LIMIT: TopupLimiterOptions = { maxFailures: 10, windowSeconds: 600 };

/** A sliding window of failure times per user, in memory. */
export function createMemoryTopupLimiter(options: TopupLimiterOptions = DEFAULT_TOPUP_LIMIT): TopupLimiter {
  const failures = new Map<number, number[]>();
  const now = options.now ?? Date.now;
  const windowMs = options.windowSeconds * 1000;

  function recentFailures(userId: number): number[] {
    const cutoff = now() - windowMs;
    const recent = (failures.get(userId) ?? []).filter((time) => time > cutoff);
    if (recent.length === 0) failures.delete(userId);
    else failures.set(userId, recent);
    return recent;
  }

  function forgetIdleUsers(): void {
    const cutoff = now() - windowMs;
    for (const [userId, times] of failures) {
      if ((times.at(-1) ?? 0) <= cutoff) failures.delete(userId);
    }
  }

  return {
    async retryAfterSeconds(userId) {
      const recent = recentFailures(userId);
      if (recent.length < options.maxFailures) return 0;
      const oldestCounted = recent[recent.length - options.maxFailures] ?? now();
      return Math.max(1, Math.ceil((oldestCounted + windowMs - now()) / 1000));
    },
    async recordFailure(userId) {
      if (failures.size > 10_000) forgetIdleUsers();
      failures.set(userId, [...recentFailures(userId), now()]);
    },
  };
}
