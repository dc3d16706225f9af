import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QuotaHolder } from '../src/billing/quota-reservation';
import { reserveQuotaBatch } from '../src/billing/reserve-quota-batch';
import { createTestApp, type TestApp } from './test-app';
import { holderBalances } from './support/quota-holder';

let test: TestApp;

beforeEach(async () => {
  test = await createTestApp();
});
afterEach(async () => {
  await test.close();
});

async function seed(quota: number, remainQuota: number, isUnlimitedToken = false): Promise<QuotaHolder> {
  const { db } = test.context;
  const user = await db
    .insertInto('users')
    .values({
      username: `u${Math.random().toString(36).slice(2, 10)}`,
      password: 'x',
      aff_code: Math.random().toString(36).slice(2, 10),
      quota,
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
  return { userId, tokenId: Number(token.insertId), isUnlimitedToken };
}

async function recordIds(): Promise<string[]> {
  const rows = await test.context.db.selectFrom('quota_reservations').select('id').orderBy('id').execute();
  return rows.map((row) => row.id);
}

const record = (id: string) => ({ id, nodeId: 'node-a', leaseSeconds: 300 });

describe('reservations taken together (one transaction per event-loop turn on SQLite)', () => {
  it('takes each as if alone: a key that cannot cover one leaves its user untouched, others go through', async () => {
    const holder = await seed(1000, 500);
    const poor = await seed(100, 10_000);
    const shortfalls = await reserveQuotaBatch(test.context.db, [
      { holder, amount: 300, record: record('a') },
      { holder, amount: 300, record: record('b') },
      { holder, amount: 150, record: record('c') },
      { holder: poor, amount: 600, record: record('d') },
      { holder: poor, amount: 0, record: record('e') },
    ]);
    expect(shortfalls).toEqual([null, 'token', null, 'user', null]);
    expect(await holderBalances(test.context.db, holder)).toEqual({ user: 550, token: 50 });
    expect(await holderBalances(test.context.db, poor)).toEqual({ user: 100, token: 10_000 });
    expect(await recordIds()).toEqual(['a', 'c']);
  });

  it('an unlimited key draws on the user only', async () => {
    const holder = await seed(1000, 0, true);
    expect(await reserveQuotaBatch(test.context.db, [{ holder, amount: 400, record: record('u') }])).toEqual([
      null,
    ]);
    expect(await holderBalances(test.context.db, holder)).toEqual({ user: 600, token: 0 });
  });

  it('fails every reservation of the batch, taking nothing, when the transaction fails', async () => {
    const holder = await seed(1000, 1000);
    // The second record repeats the first one's id: the insert fails, and with it the whole batch.
    await expect(
      reserveQuotaBatch(test.context.db, [
        { holder, amount: 100, record: record('same') },
        { holder, amount: 100, record: record('same') },
      ]),
    ).rejects.toThrow();
    expect(await holderBalances(test.context.db, holder)).toEqual({ user: 1000, token: 1000 });
    expect(await recordIds()).toEqual([]);
  });

  it('never lets the reservations of one turn overdraw, through the keeper the relay uses', async () => {
    const holder = await seed(1000, 1000);
    const { reservations } = test.context;
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, index) => reservations.reserve(holder, 90, `turn-${index}`)),
    );
    expect(results.filter((result) => result === null)).toHaveLength(11);
    expect(results.filter((result) => result === 'user')).toHaveLength(14);
    expect(await holderBalances(test.context.db, holder)).toEqual({ user: 10, token: 10 });
    expect(await recordIds()).toHaveLength(11);
  });
});
