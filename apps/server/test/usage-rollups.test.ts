import { afterAll, describe, expect, it } from 'vitest';
import { LogType } from '@gatehouse/shared';
import type { Db } from '../src/db/database';
import { rebuildRollups } from '../src/rollups/rollup-rebuild';
import { startOpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';
import { externalDatabaseServers, isListening } from './support/external-databases';

/**
 * The usage rollups are written with the settlement batches; they must equal the sums of the logs they are
 * derived from — JSON, streamed and failed requests — and a rebuild from the logs must give the same rows.
 */
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function relayTraffic(kit: RelayKit) {
  const good = await startOpenAIUpstream('good', { usage: { prompt: 10, completion: 7, cached: 4 } });
  const broken = await startOpenAIUpstream('broken', {
    error: { status: 500, message: 'upstream fell over' },
  });
  cleanups.unshift(
    () => good.close(),
    () => broken.close(),
  );
  await kit.createChannel({ upstream: good, models: 'gpt-4o,gpt-4o-mini' });
  await kit.createChannel({ upstream: broken, models: 'gpt-4o-broken' });
  await kit.test.context.options.set('ModelRatio', JSON.stringify({ 'gpt-4o-broken': 1 }));
  const alice = await kit.createUser({ quota: 1_000_000 });
  const bob = await kit.createUser({ quota: 1_000_000 });
  const aliceKeys = [
    await kit.createKey(alice.id, { name: 'laptop' }),
    await kit.createKey(alice.id, { name: 'ci' }),
  ];
  const bobKey = await kit.createKey(bob.id, { name: 'laptop' });
  const ask = (key: string, model: string, stream = false) =>
    kit
      .client(key)
      .chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], stream })
      .then(async (answer) => {
        if (stream) for await (const chunk of answer as AsyncIterable<unknown>) void chunk;
      });
  await ask(aliceKeys[0].key, 'gpt-4o');
  await ask(aliceKeys[0].key, 'gpt-4o', true);
  await ask(aliceKeys[1].key, 'gpt-4o-mini');
  await ask(bobKey.key, 'gpt-4o', true);
  await expect(ask(aliceKeys[1].key, 'gpt-4o-broken')).rejects.toThrow();
  await kit.settle();
  return { alice, bob };
}

const keyOf = (row: { user_id: number; token_name: string; model_name: string; channel_id: number }) =>
  `${row.user_id}/${row.token_name}/${row.model_name}/${row.channel_id}`;

/** Per user, key name, model and channel: what the logs add up to. */
async function sumLogs(db: Db) {
  const logs = await db
    .selectFrom('logs')
    .selectAll()
    .where('type', 'in', [LogType.consume, LogType.error])
    .execute();
  const sums = new Map<string, Record<string, number>>();
  for (const log of logs) {
    const sum = sums.get(keyOf(log)) ?? {
      requests: 0,
      errors: 0,
      quota: 0,
      prompt: 0,
      completion: 0,
      cacheRead: 0,
      latency: 0,
    };
    sum.requests += 1;
    sum.errors += log.type === LogType.error ? 1 : 0;
    sum.quota += Number(log.quota);
    sum.prompt += Number(log.prompt_tokens);
    sum.completion += Number(log.completion_tokens);
    sum.cacheRead += Number(log.cache_read_tokens);
    sum.latency += log.type === LogType.error ? 0 : Number(log.elapsed_time);
    sums.set(keyOf(log), sum);
  }
  return sums;
}

async function sumRollups(db: Db, table: 'usage_rollups_hourly' | 'usage_rollups_daily') {
  const rows = await db.selectFrom(table).selectAll().execute();
  const sums = new Map<string, Record<string, number>>();
  for (const row of rows) {
    const sum = sums.get(keyOf(row)) ?? {
      requests: 0,
      errors: 0,
      quota: 0,
      prompt: 0,
      completion: 0,
      cacheRead: 0,
      latency: 0,
    };
    sum.requests += Number(row.request_count);
    sum.errors += Number(row.error_count);
    sum.quota += Number(row.quota);
    sum.prompt += Number(row.prompt_tokens);
    sum.completion += Number(row.completion_tokens);
    sum.cacheRead += Number(row.cache_read_tokens);
    sum.latency += Number(row.latency_ms_sum);
    const histogram = Array.from({ length: 11 }, (_, index) =>
      Number(row[`latency_bucket_${index}` as 'latency_bucket_0']),
    );
    // Every request that succeeded is in exactly one latency bucket.
    expect(histogram.reduce((a, b) => a + b, 0)).toBe(Number(row.request_count) - Number(row.error_count));
    sums.set(keyOf(row), sum);
  }
  return sums;
}

async function snapshot(db: Db, table: 'usage_rollups_hourly' | 'usage_rollups_daily') {
  const rows = await db.selectFrom(table).selectAll().execute();
  return rows
    .map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([name, value]) => [
          name,
          typeof value === 'string' && name !== 'token_name' && name !== 'model_name' ? Number(value) : value,
        ]),
      ),
    )
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

async function checkRollups(env: Record<string, string>) {
  const kit = await startRelayKit(env);
  cleanups.unshift(() => kit.close());
  const { db } = kit.test.context;
  const { alice } = await relayTraffic(kit);

  const logSums = await sumLogs(db);
  // Five requests: four answered, one failed and logged as an error of its channel.
  expect([...logSums.values()].reduce((total, sum) => total + sum.requests, 0)).toBe(5);
  expect([...logSums.values()].reduce((total, sum) => total + sum.errors, 0)).toBe(1);
  expect(await sumRollups(db, 'usage_rollups_hourly')).toEqual(logSums);
  expect(await sumRollups(db, 'usage_rollups_daily')).toEqual(logSums);
  const aliceLaptop = [...logSums].filter(([key]) => key.startsWith(`${alice.id}/laptop/gpt-4o/`));
  expect(aliceLaptop).toHaveLength(1);
  expect(aliceLaptop[0][1]).toMatchObject({
    requests: 2,
    errors: 0,
    prompt: 20,
    completion: 14,
    cacheRead: 8,
  });

  const hourly = await snapshot(db, 'usage_rollups_hourly');
  const daily = await snapshot(db, 'usage_rollups_daily');
  expect(hourly.length).toBeGreaterThanOrEqual(4);
  const now = Math.floor(Date.now() / 1000);
  const rebuilt = await rebuildRollups(db, now - 3600, now + 60);
  expect(rebuilt.logs).toBe(5);
  expect(await snapshot(db, 'usage_rollups_hourly')).toEqual(hourly);
  expect(await snapshot(db, 'usage_rollups_daily')).toEqual(daily);
}

describe('usage rollups on SQLite', () => {
  it('equal the sums of the logs after JSON, streamed and failed requests, and a rebuild gives the same rows', async () => {
    await checkRollups({});
  });
});

for (const server of externalDatabaseServers) {
  const reachable = await isListening(server.port);
  describe.skipIf(!reachable)(`usage rollups on ${server.name}`, () => {
    it('equal the sums of the logs, and a rebuild gives the same rows', async () => {
      const database = await server.create('gatehouse_rollups');
      cleanups.push(database.drop);
      await checkRollups({ SQL_DSN: database.dsn });
    });
  });
}
