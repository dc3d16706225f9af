import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { isListening } from '../../test/support/external-databases';
import {
  MemoryLimitCounters,
  RedisLimitCounters,
  type LimitCheck,
  type LimitCounters,
} from './limit-counters';

const isRedisUp = await isListening(6379);
const redis = isRedisUp ? new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 }) : null;
afterAll(async () => {
  await redis?.quit();
});

const implementations: Array<[string, () => LimitCounters, boolean]> = [
  ['in process', () => new MemoryLimitCounters(), true],
  // A fresh prefix per test: runs sharing the machine's Redis never see each other's counters.
  ['in Redis', () => new RedisLimitCounters(redis as Redis, `gatehouse:test:${randomUUID()}:`), isRedisUp],
];

const check = (key: string, limit: number, amount = 1, ttlMs = 60_000): LimitCheck => ({
  key,
  amount,
  limit,
  ttlMs,
});

for (const [name, create, isAvailable] of implementations) {
  describe.skipIf(!isAvailable)(`limit counters ${name}`, () => {
    it('admits exactly `limit` of many concurrent hits and reports the count and the reset', async () => {
      const counters = create();
      const results = await Promise.all(Array.from({ length: 40 }, () => counters.admit([check('rpm', 10)])));
      expect(results.filter((result) => result.isAdmitted)).toHaveLength(10);
      const refused = results.find((result) => !result.isAdmitted);
      expect(refused).toMatchObject({ isAdmitted: false, refusedIndex: 0, counter: { count: 10 } });
      if (refused && !refused.isAdmitted) {
        expect(refused.counter.ttlMs).toBeGreaterThan(50_000);
        expect(refused.counter.ttlMs).toBeLessThanOrEqual(60_000);
      }
    });

    it('is all or nothing: a refusal on one counter leaves the others untouched', async () => {
      const counters = create();
      expect(await counters.admit([check('key', 5), check('user', 1)])).toMatchObject({
        isAdmitted: true,
        counters: [{ count: 1 }, { count: 1 }],
      });
      expect(await counters.admit([check('key', 5), check('user', 1)])).toMatchObject({
        isAdmitted: false,
        refusedIndex: 1,
      });
      expect(await counters.admit([check('key', 5)])).toMatchObject({ counters: [{ count: 2 }] });
    });

    it('counts amounts against the limit and corrects them later, never below zero', async () => {
      const counters = create();
      expect((await counters.admit([check('tpm', 1000, 600)])).isAdmitted).toBe(true);
      expect((await counters.admit([check('tpm', 1000, 600)])).isAdmitted).toBe(false);
      // The first request settled at 100 tokens: 500 go back, and a second 600 now fits.
      await counters.adjust('tpm', -500);
      expect(await counters.admit([check('tpm', 1000, 600)])).toMatchObject({ counters: [{ count: 700 }] });
      await counters.adjust('tpm', -5000);
      expect(await counters.admit([check('tpm', 1000, 0)])).toMatchObject({ counters: [{ count: 0 }] });
    });

    it('leaves a counter whose window has ended alone when a late correction arrives', async () => {
      const counters = create();
      await counters.admit([check('short', 10, 1, 50)]);
      await new Promise((resolve) => setTimeout(resolve, 120));
      await counters.adjust('short', 3);
      expect(await counters.admit([check('short', 10, 1, 50)])).toMatchObject({ counters: [{ count: 1 }] });
    });

    it('holds parallel slots until they are given back', async () => {
      const counters = create();
      const slot: LimitCheck = { ...check('parallel', 2), isRenewed: true };
      expect((await counters.admit([slot])).isAdmitted).toBe(true);
      expect((await counters.admit([slot])).isAdmitted).toBe(true);
      expect((await counters.admit([slot])).isAdmitted).toBe(false);
      await counters.adjust('parallel', -1);
      expect((await counters.admit([slot])).isAdmitted).toBe(true);
    });
  });
}
