import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LogType, UserStatus } from '@gatehouse/shared';
import { refundQuota, reserveQuota, type QuotaHolder } from '../src/billing/quota-reservation';
import { SettlementLedger, type QuotaCrossing, type Settlement } from '../src/billing/settlement-ledger';
import { silentLog } from './support/quota-holder';
import { createTestApp, type TestApp } from './test-app';

let test: TestApp;
let ledger: SettlementLedger;
let crossings: QuotaCrossing[];
let threshold: number;

beforeEach(async () => {
  test = await createTestApp();
  crossings = [];
  threshold = 0;
  ledger = new SettlementLedger(
    test.context.db,
    silentLog,
    () => threshold,
    (crossing) => crossings.push(crossing),
  );
});
afterEach(async () => {
  await ledger.close();
  await test.close();
});

async function seed(
  quota: number,
  remainQuota: number,
  isUnlimitedToken = false,
): Promise<QuotaHolder & { channelId: number }> {
  const { db } = test.context;
  const user = await db
    .insertInto('users')
    .values({
      username: `u${Math.random().toString(36).slice(2, 10)}`,
      password: 'x',
      aff_code: Math.random().toString(36).slice(2, 10),
      quota,
      email: 'owner@example.com',
      created_at: 0,
    })
    .executeTakeFirstOrThrow();
  const userId = Number(user.insertId);
  const token = await db
    .insertInto('tokens')
    .values({
      user_id: userId,
      key: Math.random().toString(36).slice(2),
      remain_quota: remainQuota,
      unlimited_quota: isUnlimitedToken ? 1 : 0,
    })
    .executeTakeFirstOrThrow();
  const channel = await db.insertInto('channels').values({ key: 'k', name: 'c' }).executeTakeFirstOrThrow();
  return { userId, tokenId: Number(token.insertId), isUnlimitedToken, channelId: Number(channel.insertId) };
}

async function read(holder: QuotaHolder & { channelId: number }) {
  const { db } = test.context;
  const user = await db
    .selectFrom('users')
    .select(['quota', 'used_quota', 'request_count'])
    .where('id', '=', holder.userId)
    .executeTakeFirstOrThrow();
  const token = await db
    .selectFrom('tokens')
    .select(['remain_quota', 'used_quota', 'request_count'])
    .where('id', '=', holder.tokenId)
    .executeTakeFirstOrThrow();
  const channel = await db
    .selectFrom('channels')
    .select(['used_quota', 'request_count'])
    .where('id', '=', holder.channelId)
    .executeTakeFirstOrThrow();
  const logs = await db
    .selectFrom('logs')
    .select(['quota', 'type'])
    .where('user_id', '=', holder.userId)
    .orderBy('id')
    .execute();
  return {
    quota: Number(user.quota),
    userUsed: Number(user.used_quota),
    userRequests: user.request_count,
    remain: Number(token.remain_quota),
    tokenUsed: Number(token.used_quota),
    channelUsed: Number(channel.used_quota),
    channelRequests: channel.request_count,
    logs: logs.map((log) => log.quota),
  };
}

function settlement(
  holder: QuotaHolder & { channelId: number },
  reserved: number,
  cost: number,
  withLog = true,
): Settlement {
  return {
    holder,
    channelId: holder.channelId,
    reserved,
    cost,
    createdAt: 1_700_000_000,
    log: withLog
      ? {
          user_id: holder.userId,
          username: 'someone',
          token_name: 'key',
          model_name: 'm',
          prompt_tokens: 1,
          completion_tokens: 1,
          channel_id: holder.channelId,
          elapsed_time: 5,
          is_stream: 0,
          request_id: 'r',
          content: 'model ratio 1, completion ratio 1, group ratio 1',
        }
      : null,
  };
}

describe('reserveQuota', () => {
  it('takes the amount from the user and the key together', async () => {
    const holder = await seed(1000, 800);
    expect(await reserveQuota(test.context.db, holder, 300)).toBeNull();
    expect(await read(holder)).toMatchObject({ quota: 700, remain: 500 });
  });

  it('refuses without touching either balance when the key lacks', async () => {
    const holder = await seed(1000, 100);
    expect(await reserveQuota(test.context.db, holder, 300)).toBe('token');
    expect(await read(holder)).toMatchObject({ quota: 1000, remain: 100 });
  });

  it('refuses when the user lacks or is disabled', async () => {
    const holder = await seed(200, 1000);
    expect(await reserveQuota(test.context.db, holder, 300)).toBe('user');
    await test.context.db
      .updateTable('users')
      .set({ status: UserStatus.disabled, quota: 5000 })
      .where('id', '=', holder.userId)
      .execute();
    expect(await reserveQuota(test.context.db, holder, 300)).toBe('user');
    expect(await read(holder)).toMatchObject({ quota: 5000, remain: 1000 });
  });

  it('leaves an unlimited key alone', async () => {
    const holder = await seed(1000, 0, true);
    expect(await reserveQuota(test.context.db, holder, 300)).toBeNull();
    expect(await read(holder)).toMatchObject({ quota: 700, remain: 0 });
  });

  it('never lets racing reservations overdraw', async () => {
    const holder = await seed(1000, 1000);
    const results = await Promise.all(
      Array.from({ length: 25 }, () => reserveQuota(test.context.db, holder, 90)),
    );
    expect(results.filter((result) => result === null)).toHaveLength(11);
    expect(await read(holder)).toMatchObject({ quota: 10, remain: 10 });
  });

  it('refunds a whole reservation', async () => {
    const holder = await seed(1000, 1000);
    await reserveQuota(test.context.db, holder, 400);
    await refundQuota(test.context.db, holder, 400);
    expect(await read(holder)).toMatchObject({ quota: 1000, remain: 1000 });
  });
});

describe('SettlementLedger', () => {
  it.each([
    // name, balance before reservation, reserved, cost, expected balance, expected logged quota
    ['refunds what was reserved but not used', 1000, 300, 120, 880, 120],
    ['charges an overrun the balance covers', 1000, 300, 450, 550, 450],
    ['takes an uncovered overrun down to zero and logs what was charged', 1000, 300, 5000, 0, 1000],
    ['settles exactly', 1000, 300, 300, 700, 300],
  ])('%s', async (_name, balance, reserved, cost, expectedBalance, expectedLog) => {
    const holder = await seed(balance, balance);
    expect(await reserveQuota(test.context.db, holder, reserved)).toBeNull();
    ledger.record(settlement(holder, reserved, cost));
    await ledger.flush();
    expect(await read(holder)).toEqual({
      quota: expectedBalance,
      userUsed: expectedLog,
      userRequests: 1,
      remain: expectedBalance,
      tokenUsed: expectedLog,
      channelUsed: expectedLog,
      channelRequests: 1,
      logs: [expectedLog],
    });
  });

  it('settles a batch of many requests of one user in one go, the logs adding up to the spend', async () => {
    const holder = await seed(10_000, 10_000);
    const costs = [100, 2500, 50, 4000, 3000, 900];
    for (const cost of costs) {
      expect(await reserveQuota(test.context.db, holder, 500)).toBeNull();
      ledger.record(settlement(holder, 500, cost));
    }
    await ledger.flush();
    const after = await read(holder);
    expect(after.quota).toBe(0);
    expect(after.logs.reduce((sum, quota) => sum + quota, 0)).toBe(10_000);
    expect(after.userUsed).toBe(10_000);
    expect(after.logs.every((quota, index) => quota >= Math.min(500, costs[index]))).toBe(true);
  });

  it('waits in flush() for a settlement announced while its tokens are still being counted', async () => {
    const holder = await seed(1000, 1000);
    await reserveQuota(test.context.db, holder, 300);
    const recorded = ledger.expectSettlement();
    let isFlushed = false;
    const flushing = ledger.flush().then(() => (isFlushed = true));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(isFlushed).toBe(false);
    ledger.record(settlement(holder, 300, 120));
    recorded();
    await flushing;
    expect(await read(holder)).toMatchObject({ quota: 880, remain: 880, logs: [120] });
  });

  it('keeps counters without a log row when LogConsumeEnabled is off', async () => {
    const holder = await seed(1000, 0, true);
    await reserveQuota(test.context.db, holder, 100);
    ledger.record(settlement(holder, 100, 40, false));
    await ledger.flush();
    expect(await read(holder)).toMatchObject({
      quota: 960,
      remain: 0,
      tokenUsed: 40,
      channelRequests: 1,
      logs: [],
    });
    const rows = await test.context.db
      .selectFrom('logs')
      .select('type')
      .where('type', '=', LogType.consume)
      .execute();
    expect(rows).toHaveLength(0);
  });

  it('reports a balance crossing QuotaRemindThreshold once', async () => {
    threshold = 500;
    const holder = await seed(1000, 1000);
    for (const cost of [300, 300, 300]) {
      await reserveQuota(test.context.db, holder, cost);
      ledger.record(settlement(holder, cost, cost));
      await ledger.flush();
    }
    expect(crossings).toEqual([
      { userId: holder.userId, username: expect.any(String), email: 'owner@example.com', quota: 400 },
    ]);
  });
});
