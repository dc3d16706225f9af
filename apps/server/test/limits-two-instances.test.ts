import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';
import { externalDatabaseServers, isListening } from './support/external-databases';
import { readLedger } from './support/ledger';

/**
 * Two gateway instances on one database and one Redis: the limits hold across both exactly, and the ledger
 * (user used quota = key used quota = sum of the logs) stays exact. Skipped for a server the machine does not run.
 */
/**
 * Counters are named by key and user id, and every test database numbers from 1: each database server gets a
 * Redis database of its own, emptied first, so runs never count each other's requests.
 */
const redisUrlFor = (index: number) => `redis://127.0.0.1:6379/${12 + index}`;
const isRedisUp = await isListening(6379);

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

const ask = (kit: RelayKit, key: string) =>
  fetch(`${kit.gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
  });

async function ledgerOf(kit: RelayKit, userId: number, tokenId: number) {
  const { userUsed, tokenUsed, logged } = await readLedger(kit.test.context.db, userId, tokenId);
  return { userUsed, tokenUsed, logged };
}

for (const [index, server] of externalDatabaseServers.entries()) {
  const isReachable = isRedisUp && (await isListening(server.port));
  describe.skipIf(!isReachable)(`limits across two instances on ${server.name} and Redis`, () => {
    let first: RelayKit;
    let second: RelayKit;
    let upstream: OpenAIUpstream;

    it('starts two gateways on one database and one Redis', async () => {
      const database = await server.create('gatehouse_limits');
      cleanups.push(database.drop);
      upstream = await startOpenAIUpstream('shared', { usage: { prompt: 10, completion: 10 }, delayMs: 150 });
      cleanups.unshift(() => upstream.close());
      const redis = new Redis(redisUrlFor(index));
      await redis.flushdb();
      await redis.quit();
      const env = { SQL_DSN: database.dsn, REDIS_CONN_STRING: redisUrlFor(index) };
      first = await startRelayKit(env);
      cleanups.unshift(() => first.close());
      await first.createChannel({ upstream, models: 'gpt-4o' });
      second = await startRelayKit({ ...env, NODE_TYPE: 'slave' });
      cleanups.unshift(() => second.close());
    });

    it('admits exactly 10 of 40 parallel requests spread over both under RPM 10, and the ledger stays exact', async () => {
      const remainingMs = 60_000 - (Date.now() % 60_000);
      if (remainingMs < 5000) await new Promise((resolve) => setTimeout(resolve, remainingMs + 50));
      const user = await first.createUser({ quota: 1_000_000 });
      const { id, key } = await first.createKey(user.id, { isUnlimited: false });
      await first.test.context.db.updateTable('tokens').set({ rpm_limit: 10 }).where('id', '=', id).execute();
      await first.test.context.db
        .updateTable('users')
        .set({ rpm_limit: 0, max_parallel_requests: 0 })
        .where('id', '=', user.id)
        .execute();
      const statuses = await Promise.all(
        Array.from({ length: 40 }, (_, index) =>
          ask(index % 2 === 0 ? first : second, key).then((r) => r.status),
        ),
      );
      expect(statuses.filter((status) => status === 200)).toHaveLength(10);
      expect(statuses.filter((status) => status === 429)).toHaveLength(30);
      await first.settle();
      await second.settle();
      // (10 + 10 × 4) × 1.25 = 62.5 → 63 for each admitted request.
      expect(await ledgerOf(first, user.id, id)).toEqual({ userUsed: 630, tokenUsed: 630, logged: 630 });
    });

    it('never holds more than max_parallel_requests of a user upstream across both', async () => {
      const user = await first.createUser({ quota: 1_000_000 });
      await first.test.context.db
        .updateTable('users')
        .set({ max_parallel_requests: 4 })
        .where('id', '=', user.id)
        .execute();
      const keys = [await first.createKey(user.id), await first.createKey(user.id)];
      const statuses = await Promise.all(
        Array.from({ length: 24 }, (_, index) =>
          ask(index % 2 === 0 ? first : second, keys[index % 2].key).then((r) => r.status),
        ),
      );
      // The upstream answers after 150 ms: all 24 arrive while the first 4 run.
      expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(4);
      expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(1);
      await first.settle();
      await second.settle();
      // The slots came back: four more run at once.
      const again = await Promise.all(
        Array.from({ length: 4 }, (_, index) =>
          ask(index % 2 === 0 ? first : second, keys[0].key).then((r) => r.status),
        ),
      );
      expect(again).toEqual([200, 200, 200, 200]);
    });
  });
}
