import { afterAll, describe, expect, it } from 'vitest';
import { LogType } from '@gatehouse/shared';
import { loadConfig } from '../src/config/config';
import { closeContext, createContext, type AppContext } from '../src/context';
import { reserveQuota } from '../src/billing/quota-reservation';
import { quietLedger, seedQuotaHolder } from './support/quota-holder';
import { toLog } from '../src/logs/log-query';
import { startOpenAIUpstream } from './support/openai-upstream';
import { startRelayKit } from './support/relay-kit';
import { externalDatabaseServers, isListening } from './support/external-databases';

/**
 * The reservation and settlement on PostgreSQL and MySQL/MariaDB, when the machine runs them (127.0.0.1:5432
 * and :3306): real connection pools, so racing reservations really run at once — also from two app instances.
 */
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

function seed(context: AppContext, quota: number, remainQuota: number) {
  return seedQuotaHolder(context.db, { quota, remainQuota });
}

async function balances(context: AppContext, holder: { userId: number; tokenId: number }) {
  const user = await context.db
    .selectFrom('users')
    .select('quota')
    .where('id', '=', holder.userId)
    .executeTakeFirstOrThrow();
  const token = await context.db
    .selectFrom('tokens')
    .select('remain_quota')
    .where('id', '=', holder.tokenId)
    .executeTakeFirstOrThrow();
  return { user: Number(user.quota), token: Number(token.remain_quota) };
}

const itemisedGpt4o = {
  prompt_tokens: 10,
  completion_tokens: 10,
  inbound_protocol: 'openai-chat',
  model_ratio: 1.25,
  completion_ratio: 4,
  cache_read_ratio: 0.5,
  cache_write_ratio: 1,
  group_ratio: 1,
};

for (const server of externalDatabaseServers) {
  const reachable = await isListening(server.port);
  describe.skipIf(!reachable)(`billing on ${server.name}`, () => {
    it('never overdraws under racing reservations from two instances, and settles to zero exactly', async () => {
      const database = await server.create('gatehouse_billing');
      cleanups.push(database.drop);
      const config = loadConfig({ SQL_DSN: database.dsn, SESSION_SECRET: 'billing-database-test' });
      const first = await createContext(config);
      const second = await createContext({ ...config, isMasterNode: false });
      cleanups.unshift(
        () => closeContext(second),
        () => closeContext(first),
      );

      const holder = await seed(first, 1000, 1000);
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, index) =>
          reserveQuota((index % 2 === 0 ? first : second).db, holder, 90),
        ),
      );
      expect(results.filter((result) => result === null)).toHaveLength(11);
      expect(await balances(first, holder)).toEqual({ user: 10, token: 10 });

      // Settling costs above what was reserved takes the balances to zero, and the logs say what was charged.
      const ledger = quietLedger(first.db);
      for (let index = 0; index < 11; index += 1) {
        ledger.record({
          holder,
          channelId: holder.channelId,
          reserved: 90,
          cost: 95,
          createdAt: 1,
          log: {
            user_id: holder.userId,
            username: 'u',
            token_name: 'k',
            model_name: 'm',
            prompt_tokens: 1,
            completion_tokens: 1,
            channel_id: holder.channelId,
            elapsed_time: 1,
            is_stream: 0,
            request_id: `r${index}`,
            content: '',
          },
        });
      }
      await ledger.close();
      expect(await balances(first, holder)).toEqual({ user: 0, token: 0 });
      const logs = await first.db
        .selectFrom('logs')
        .select('quota')
        .where('user_id', '=', holder.userId)
        .where('type', '=', LogType.consume)
        .execute();
      expect(logs.reduce((sum, log) => sum + Number(log.quota), 0)).toBe(1000);
    });

    it('relays and bills a chat completion end to end', async () => {
      const database = await server.create('gatehouse_billing');
      cleanups.push(database.drop);
      const upstream = await startOpenAIUpstream('sql', { usage: { prompt: 10, completion: 10 } });
      const kit = await startRelayKit({ SQL_DSN: database.dsn });
      cleanups.unshift(
        () => upstream.close(),
        () => kit.close(),
      );
      await kit.createChannel({ upstream, models: 'gpt-4o' });
      const user = await kit.createUser({ quota: 100_000 });
      const { key } = await kit.createKey(user.id, { isUnlimited: false, remainQuota: 50_000 });
      const client = kit.client(key);
      const completion = await client.chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(completion.choices[0].message.content).toBe('Hello from sql');
      const stream = await client.chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
      });
      for await (const chunk of stream) void chunk;
      await kit.settle();
      // (10 + 10 × 4) × 1.25 = 62.5 → 63 each.
      expect(await kit.userQuota(user.id)).toBe(100_000 - 126);
      // The itemised columns come back as numbers, the decimal ratios exactly.
      const logs = await kit.test.context.db
        .selectFrom('logs')
        .selectAll()
        .where('user_id', '=', user.id)
        .where('type', '=', LogType.consume)
        .execute();
      expect(logs.map(toLog)).toEqual([
        expect.objectContaining(itemisedGpt4o),
        expect.objectContaining(itemisedGpt4o),
      ]);
    });

    it('writes and reads back the cache counts and the ratios of a settled request', async () => {
      const database = await server.create('gatehouse_billing');
      cleanups.push(database.drop);
      const context = await createContext(
        loadConfig({ SQL_DSN: database.dsn, SESSION_SECRET: 'billing-database-test' }),
      );
      cleanups.unshift(() => closeContext(context));
      const holder = await seed(context, 100_000, 100_000);
      const ledger = quietLedger(context.db);
      ledger.record({
        holder,
        channelId: holder.channelId,
        reserved: 0,
        cost: 7988,
        createdAt: 1,
        log: {
          user_id: holder.userId,
          model_name: 'claude-sonnet-4-5',
          prompt_tokens: 4700,
          completion_tokens: 800,
          cache_read_tokens: 3000,
          cache_write_tokens: 500,
          reasoning_tokens: 300,
          inbound_protocol: 'anthropic-messages',
          model_ratio: 1.5,
          completion_ratio: 4,
          cache_read_ratio: 0.1,
          cache_write_ratio: 1.25,
          group_ratio: 0.8,
          request_id: 'r1',
        },
      });
      await ledger.close();
      const row = await context.db
        .selectFrom('logs')
        .selectAll()
        .where('user_id', '=', holder.userId)
        .executeTakeFirstOrThrow();
      expect(toLog(row)).toMatchObject({
        quota: 7988,
        cache_read_tokens: 3000,
        cache_write_tokens: 500,
        reasoning_tokens: 300,
        inbound_protocol: 'anthropic-messages',
        model_ratio: 1.5,
        completion_ratio: 4,
        cache_read_ratio: 0.1,
        cache_write_ratio: 1.25,
        group_ratio: 0.8,
      });
    });
  });
}
