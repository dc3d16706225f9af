import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType } from '@gatehouse/shared';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';
import { startSmtpCatcher } from './support/smtp-catcher';
import { startSqliteWriteThread } from './support/sqlite-write-thread';

let kit: RelayKit;
let upstream: OpenAIUpstream;

async function consumption(userId: number) {
  await kit.settle();
  const logs = await kit.test.context.db
    .selectFrom('logs')
    .select(['quota', 'prompt_tokens', 'completion_tokens'])
    .where('type', '=', LogType.consume)
    .where('user_id', '=', userId)
    .execute();
  return { count: logs.length, sum: logs.reduce((total, log) => total + log.quota, 0) };
}

async function balances(userId: number, tokenId: number) {
  const user = await kit.test.context.db
    .selectFrom('users')
    .select(['quota', 'used_quota', 'request_count'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const token = await kit.test.context.db
    .selectFrom('tokens')
    .select(['remain_quota', 'used_quota', 'request_count'])
    .where('id', '=', tokenId)
    .executeTakeFirstOrThrow();
  return { user, token };
}

// On SQLite, with the ledger's transactions on the main connection and in the write thread.
for (const writeThread of ['off', 'on']) {
  describe(`ledger under concurrency (SQLITE_WRITE_THREAD=${writeThread})`, () => {
    beforeAll(async () => {
      upstream = await startOpenAIUpstream('ledger', { chunkDelayMs: 5 });
      kit = await startRelayKit({ SQLITE_WRITE_THREAD: writeThread });
      if (writeThread === 'on') await startSqliteWriteThread(kit.test.context.db);
      // Ratio 1, completion ratio 1: a request costs its prompt + completion tokens.
      await kit.test.context.options.set('ModelRatio', JSON.stringify({ 'ledger-model': 1 }));
      await kit.test.context.options.set('PreConsumedQuota', '500');
      // These tests drive the one channel into failures on purpose; the breaker would then refuse the next test's
      // requests for its cool-down (the breaker has tests of its own in relay-channel-resilience).
      await kit.test.context.options.set('CircuitBreakerThreshold', '0');
      await kit.createChannel({ upstream, models: 'ledger-model' });
    });
    afterAll(async () => {
      await kit.close();
      await upstream.close();
    });

    it('refuses what the balance cannot reserve, never goes below zero, and the logs add up to the spend', async () => {
      upstream.behaviour = { usage: { prompt: 40, completion: 60 }, chunkDelayMs: 5 };
      const initial = 5_000;
      const user = await kit.createUser({ quota: initial });
      const { id: tokenId, key } = await kit.createKey(user.id, { isUnlimited: false, remainQuota: 4_000 });
      const client = kit.client(key);
      // Each reserves (500 + prompt + 100) ≈ 610 and costs 100: only a few fit at once.
      const results = await Promise.allSettled(
        Array.from({ length: 40 }, (_, index) =>
          index % 2 === 0
            ? client.chat.completions.create({
                model: 'ledger-model',
                messages: [{ role: 'user', content: `request ${index}` }],
                max_tokens: 100,
              })
            : client.chat.completions
                .create({
                  model: 'ledger-model',
                  messages: [{ role: 'user', content: `request ${index}` }],
                  max_tokens: 100,
                  stream: true,
                })
                .then(async (stream) => {
                  for await (const chunk of stream) void chunk;
                }),
        ),
      );
      const succeeded = results.filter((result) => result.status === 'fulfilled').length;
      const refused = results.filter(
        (result) => result.status === 'rejected' && (result.reason as { status?: number }).status === 429,
      ).length;
      expect(succeeded).toBeGreaterThan(0);
      expect(refused).toBeGreaterThan(0);
      expect(succeeded + refused).toBe(40);

      const ledger = await consumption(user.id);
      const { user: after, token } = await balances(user.id, tokenId);
      expect(ledger.count).toBe(succeeded);
      expect(ledger.sum).toBe(succeeded * 100);
      expect(Number(after.quota)).toBe(initial - ledger.sum);
      expect(Number(after.used_quota)).toBe(ledger.sum);
      expect(after.request_count).toBe(succeeded);
      expect(Number(token.remain_quota)).toBe(4_000 - ledger.sum);
      expect(Number(token.used_quota)).toBe(ledger.sum);
      expect(Number(token.remain_quota)).toBeGreaterThanOrEqual(0);
    });

    it('takes an uncovered overrun down to zero, never below, and logs only what was charged', async () => {
      // Without max_tokens the reservation is (500 + prompt); each answer costs 40 + 2000 = 2040.
      upstream.behaviour = { usage: { prompt: 40, completion: 2000 } };
      const initial = 20_000;
      const user = await kit.createUser({ quota: initial });
      const { id: tokenId, key } = await kit.createKey(user.id);
      const client = kit.client(key);
      const results = await Promise.allSettled(
        Array.from({ length: 30 }, (_, index) =>
          client.chat.completions.create({
            model: 'ledger-model',
            messages: [{ role: 'user', content: `go ${index}` }],
          }),
        ),
      );
      const succeeded = results.filter((result) => result.status === 'fulfilled').length;
      expect(succeeded).toBeGreaterThan(9);
      const ledger = await consumption(user.id);
      const { user: after } = await balances(user.id, tokenId);
      expect(Number(after.quota)).toBeGreaterThanOrEqual(0);
      expect(ledger.sum).toBe(initial - Number(after.quota));
      expect(ledger.count).toBe(succeeded);
      expect(Number(after.used_quota)).toBe(ledger.sum);
      // The balance could not cover every overrun: some logs were cut to what was charged.
      expect(ledger.sum).toBeLessThan(succeeded * 2040);
      expect(Number(after.quota)).toBe(0);
    });

    it('refunds every failed request in full', async () => {
      upstream.behaviour = { error: { status: 500, message: 'boom', type: 'server_error' } };
      const user = await kit.createUser({ quota: 100_000 });
      const { id: tokenId, key } = await kit.createKey(user.id, { isUnlimited: false, remainQuota: 50_000 });
      const client = kit.client(key);
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, () =>
          client.chat.completions.create({
            model: 'ledger-model',
            messages: [{ role: 'user', content: 'x' }],
            max_tokens: 50,
          }),
        ),
      );
      expect(results.every((result) => result.status === 'rejected')).toBe(true);
      expect((await consumption(user.id)).count).toBe(0);
      const { user: after, token } = await balances(user.id, tokenId);
      expect(Number(after.quota)).toBe(100_000);
      expect(Number(token.remain_quota)).toBe(50_000);
      upstream.behaviour = {};
    });

    it('e-mails the owner once when the balance falls to QuotaRemindThreshold', async () => {
      const smtp = await startSmtpCatcher();
      const { options } = kit.test.context;
      try {
        await options.set('SMTPServer', '127.0.0.1');
        await options.set('SMTPPort', String(smtp.port));
        await options.set('SMTPFrom', 'noreply@gatehouse.test');
        await options.set('QuotaRemindThreshold', '1000');
        await options.set('DisplayInCurrencyEnabled', 'false');
        upstream.behaviour = { usage: { prompt: 300, completion: 0 } };
        const user = await kit.createUser({ quota: 1_500 });
        await kit.test.context.db
          .updateTable('users')
          .set({ email: 'owner@example.com' })
          .where('id', '=', user.id)
          .execute();
        const client = kit.client((await kit.createKey(user.id)).key);
        const ask = () =>
          client.chat.completions.create({
            model: 'ledger-model',
            messages: [{ role: 'user', content: 'x' }],
            max_tokens: 1,
          });
        // 1500 → 1200: still above; → 900: crossed; → 600: already below, no second mail.
        for (let round = 0; round < 3; round += 1) {
          await ask();
          await kit.settle();
        }
        const mail = await smtp.nextMailTo('owner@example.com');
        expect(mail.subject).toContain('running low');
        expect(mail.text).toContain('900');
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(smtp.messages.filter((message) => message.to.includes('owner@example.com'))).toHaveLength(1);
      } finally {
        await options.set('QuotaRemindThreshold', '0');
        await options.set('DisplayInCurrencyEnabled', 'true');
        await options.set('SMTPServer', '');
        await smtp.close();
        upstream.behaviour = {};
      }
    });
  });
}
