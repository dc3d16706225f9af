import { afterAll, describe, expect, it } from 'vitest';
import { connectDeadRedis } from '../../test/support/dead-redis';
import { FallbackLimitCounters } from './fallback-limit-counters';
import { RedisLimitCounters, type LimitCheck } from './limit-counters';

const deadRedis = connectDeadRedis();
afterAll(() => deadRedis.disconnect());

const rpm: LimitCheck = { key: 'rpm:token:1:1', amount: 1, limit: 2, ttlMs: 60_000 };

describe('limit counters when Redis is unreachable', () => {
  it('keep serving on the node’s own counters, still enforcing the limit, with one warning in the log', async () => {
    const warnings: string[] = [];
    const log = { warn: (_: unknown, message: string) => void warnings.push(message), info: () => undefined };
    const counters = new FallbackLimitCounters(new RedisLimitCounters(deadRedis), log);
    const results = await Promise.all([counters.admit([rpm]), counters.admit([rpm]), counters.admit([rpm])]);
    expect(results.map((result) => result.isAdmitted)).toEqual([true, true, false]);
    expect(counters.isDegraded).toBe(true);
    expect(warnings).toEqual(['Redis unreachable: rate limits and budgets are counted by this node alone']);
    // A slot taken locally is given back locally.
    const slot: LimitCheck = { key: 'parallel:token:1', amount: 1, limit: 1, ttlMs: 60_000, isRenewed: true };
    expect((await counters.admit([slot])).isAdmitted).toBe(true);
    await counters.adjust(slot.key, -1);
    expect((await counters.admit([slot])).isAdmitted).toBe(true);
  });
});
