import type { Redis } from 'ioredis';
import { ExpiringEntries } from '../expiring-entries';
import type { FallbackLog } from '../limits/fallback-limit-counters';

export interface RateLimitResult {
  isAllowed: boolean;
  /** hits in the current window, this one included */
  count: number;
  /** until the window ends */
  retryAfterMs: number;
}

/**
 * Fixed-window counters: at most `limit` hits per key in a window that starts at the key's first hit.
 * In-process for one instance; in Redis when several instances must share the count.
 */
export interface RateLimiter {
  hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult>;
}

interface Window {
  count: number;
  expiresAt: number;
}

/**
 * Windows held at most (~250 bytes each with its key: 25 MB when full), far more client addresses than a
 * console sees in 20 minutes. Keyed by address, they grew with every address a client could send from (an
 * IPv6 prefix holds 2^64) until their windows ended. Past this, the oldest windows go first, and their
 * addresses start counting anew: a flood from that many addresses is not held back per address anyway.
 */
export const MAX_RATE_LIMIT_WINDOWS = 100_000;

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows: ExpiringEntries<Window>;

  constructor(capacity = MAX_RATE_LIMIT_WINDOWS) {
    this.windows = new ExpiringEntries(capacity);
  }

  /** windows held now */
  get size(): number {
    return this.windows.size;
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const now = Date.now();
    let window = this.windows.find(key, now);
    if (!window) {
      window = { count: 0, expiresAt: now + windowMs };
      this.windows.add(key, window, now);
    }
    window.count += 1;
    return { isAllowed: window.count <= limit, count: window.count, retryAfterMs: window.expiresAt - now };
  }
}

// INCR and the expiry in one atomic step, so a crash between them can never leave a counter without TTL.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if count == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'rate:',
  ) {}

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const answer = await this.redis.eval(HIT_SCRIPT, 1, this.prefix + key, String(windowMs));
    if (!Array.isArray(answer) || answer.length !== 2) {
      throw new Error(`unexpected rate-limit script answer: ${JSON.stringify(answer)}`);
    }
    const count = Number(answer[0]);
    const retryAfterMs = Number(answer[1]);
    return { isAllowed: count <= limit, count, retryAfterMs };
  }
}

/** After a Redis failure, the node counts on its own this long before it asks Redis again. */
const RETRY_AFTER_MS = 10_000;

/**
 * Redis counters that fall back to the node's own when Redis does not answer, as the relay's limits do
 * (FallbackLimitCounters): asking a dead Redis on every request made each API call and console page wait up to
 * Redis's command timeout (2 s, twice on a sign-in) and log an error. Instead the node counts alone for
 * RETRY_AFTER_MS after a failure (sign-ins stay limited, per node), with one warning, then asks Redis again.
 */
export class FallbackRateLimiter implements RateLimiter {
  private readonly local = new MemoryRateLimiter();
  private failedAt: number | null = null;

  constructor(
    private readonly shared: RateLimiter,
    private readonly log?: FallbackLog,
  ) {}

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    if (this.failedAt !== null && Date.now() - this.failedAt < RETRY_AFTER_MS) {
      return this.local.hit(key, limit, windowMs);
    }
    try {
      const result = await this.shared.hit(key, limit, windowMs);
      if (this.failedAt !== null) {
        this.failedAt = null;
        this.log?.info('Redis answers again: the API rate limits are shared across nodes again');
      }
      return result;
    } catch (error) {
      if (this.failedAt === null) {
        this.log?.warn(
          { err: error },
          'Redis unreachable: the API rate limits are counted by this node alone',
        );
      }
      this.failedAt = Date.now();
      return this.local.hit(key, limit, windowMs);
    }
  }
}
