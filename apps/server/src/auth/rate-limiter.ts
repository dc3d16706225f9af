import type { Redis } from 'ioredis';

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
  endsAt: number;
}

const SWEEP_EVERY_HITS = 1000;

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, Window>();
  private hitsSinceSweep = 0;

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const now = Date.now();
    this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { isAllowed: window.count <= limit, count: window.count, retryAfterMs: window.endsAt - now };
  }

  private sweep(now: number): void {
    this.hitsSinceSweep += 1;
    if (this.hitsSinceSweep < SWEEP_EVERY_HITS) return;
    this.hitsSinceSweep = 0;
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
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
