import type { Redis } from 'ioredis';

/** One counter a request must fit under: admitted only if `count + amount <= limit`. */
export interface LimitCheck {
  /** the counter's name, window or period included (`rpm:token:5:29043120`) */
  key: string;
  amount: number;
  limit: number;
  /** how long the counter lives after its first hit */
  ttlMs: number;
  /** a parallel-request gauge: each hit renews the lifetime (a safety net for a node that died holding slots) */
  isRenewed?: boolean;
}

export interface CounterState {
  /** the counter after this request (admitted) or as it stands (refused) */
  count: number;
  /** until the counter expires; the window's reset */
  ttlMs: number;
}

export type AdmitResult =
  | { isAdmitted: true; counters: CounterState[] }
  | { isAdmitted: false; refusedIndex: number; counter: CounterState };

/**
 * Counters of the relay's limits. `admit` is all-or-nothing: every check passes and every counter grows by its
 * amount, or nothing changes — in one atomic step, so concurrent requests (on any node, with Redis) can never
 * both take the last slot. In-process for one instance; in Redis when several instances share the limits.
 */
export interface LimitCounters {
  admit(checks: readonly LimitCheck[]): Promise<AdmitResult>;
  /** adds `delta` (negative gives back) to a counter that still exists; never below 0; a gone window is left */
  adjust(key: string, delta: number): Promise<void>;
  /** true while shared counters are unreachable and this node counts on its own */
  readonly isDegraded?: boolean;
}

interface Counter {
  value: number;
  expiresAt: number;
}

const SWEEP_EVERY_HITS = 1000;

export class MemoryLimitCounters implements LimitCounters {
  private readonly counters = new Map<string, Counter>();
  private hitsSinceSweep = 0;

  async admit(checks: readonly LimitCheck[]): Promise<AdmitResult> {
    const now = Date.now();
    this.sweep(now);
    for (const [index, check] of checks.entries()) {
      const counter = this.find(check.key, now);
      const count = counter?.value ?? 0;
      if (count + check.amount > check.limit) {
        return {
          isAdmitted: false,
          refusedIndex: index,
          counter: { count, ttlMs: counter ? counter.expiresAt - now : check.ttlMs },
        };
      }
    }
    const counters = checks.map((check) => {
      let counter = this.find(check.key, now);
      if (!counter) {
        counter = { value: 0, expiresAt: now + check.ttlMs };
        this.counters.set(check.key, counter);
      }
      if (check.isRenewed) counter.expiresAt = now + check.ttlMs;
      counter.value += check.amount;
      return { count: counter.value, ttlMs: counter.expiresAt - now };
    });
    return { isAdmitted: true, counters };
  }

  /** the counter exists and its window has not ended */
  has(key: string): boolean {
    return this.find(key, Date.now()) !== undefined;
  }

  async adjust(key: string, delta: number): Promise<void> {
    const counter = this.find(key, Date.now());
    if (counter) counter.value = Math.max(0, counter.value + delta);
  }

  private find(key: string, now: number): Counter | undefined {
    const counter = this.counters.get(key);
    if (counter && counter.expiresAt <= now) {
      this.counters.delete(key);
      return undefined;
    }
    return counter;
  }

  private sweep(now: number): void {
    this.hitsSinceSweep += 1;
    if (this.hitsSinceSweep < SWEEP_EVERY_HITS) return;
    this.hitsSinceSweep = 0;
    for (const [key, counter] of this.counters) if (counter.expiresAt <= now) this.counters.delete(key);
  }
}

// Every check, then every increment, in one script: Redis runs it atomically, so no other request's
// increment falls between a check and its own. ARGV holds amount, limit, ttl and renew flag per key.
const ADMIT_SCRIPT = `
for i = 1, #KEYS do
  local count = tonumber(redis.call('GET', KEYS[i]) or '0')
  if count + tonumber(ARGV[i * 4 - 3]) > tonumber(ARGV[i * 4 - 2]) then
    return {0, i, count, redis.call('PTTL', KEYS[i])}
  end
end
local answer = {1}
for i = 1, #KEYS do
  local count = redis.call('INCRBY', KEYS[i], ARGV[i * 4 - 3])
  local ttl = redis.call('PTTL', KEYS[i])
  if ttl < 0 or ARGV[i * 4] == '1' then
    redis.call('PEXPIRE', KEYS[i], ARGV[i * 4 - 1])
    ttl = tonumber(ARGV[i * 4 - 1])
  end
  answer[#answer + 1] = count
  answer[#answer + 1] = ttl
end
return answer
`;

const ADJUST_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
if count < 0 then redis.call('SET', KEYS[1], 0, 'KEEPTTL') end
return count
`;

export class RedisLimitCounters implements LimitCounters {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'limit:',
  ) {}

  async admit(checks: readonly LimitCheck[]): Promise<AdmitResult> {
    if (checks.length === 0) return { isAdmitted: true, counters: [] };
    const args = checks.flatMap((check) => [
      String(check.amount),
      String(check.limit),
      String(Math.max(1, Math.ceil(check.ttlMs))),
      check.isRenewed ? '1' : '0',
    ]);
    const keys = checks.map((check) => this.prefix + check.key);
    const answer = await this.redis.eval(ADMIT_SCRIPT, keys.length, ...keys, ...args);
    if (!Array.isArray(answer)) throw new Error(`unexpected limit script answer: ${JSON.stringify(answer)}`);
    const numbers = answer.map(Number);
    if (numbers[0] === 0) {
      const refusedIndex = numbers[1] - 1;
      const ttlMs = numbers[3] > 0 ? numbers[3] : checks[refusedIndex].ttlMs;
      return { isAdmitted: false, refusedIndex, counter: { count: numbers[2], ttlMs } };
    }
    const counters = checks.map((_, index) => ({
      count: numbers[1 + index * 2],
      ttlMs: numbers[2 + index * 2],
    }));
    return { isAdmitted: true, counters };
  }

  async adjust(key: string, delta: number): Promise<void> {
    if (delta === 0) return;
    await this.redis.eval(ADJUST_SCRIPT, 1, this.prefix + key, String(Math.round(delta)));
  }
}
