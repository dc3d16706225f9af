import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LogType } from '@gatehouse/shared';
import { createDatabase, type Db } from '../db/database';
import { sqliteWriteThreadOf } from '../db/direct-statements';
import { migrateToLatest } from '../db/migrate';
import { holderBalances, quietLedger, seedQuotaHolder } from '../../test/support/quota-holder';
import { startSqliteWriteThread } from '../../test/support/sqlite-write-thread';
import { refundQuota } from './quota-reservation';
import { releaseAbandonedReservations } from './reservation-recovery';
import { reserveQuotaBatch } from './reserve-quota-batch';

/**
 * The ledger's transactions in SQLite's write thread take their usual course there (settlement-batch.test.ts
 * has a batch of seventy); these are the unusual ones, where a count differs from the one expected and the
 * transaction runs again on the main connection: the outcome must be the one it always was.
 */
const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function openWithThread(): Promise<Db> {
  const folder = mkdtempSync(path.join(tmpdir(), 'gatehouse-write-thread-'));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  const db = await createDatabase({
    databaseKind: 'sqlite',
    sqlDsn: '',
    sqlitePath: path.join(folder, 't.db'),
    sqliteTransactionsInThread: true,
  });
  cleanups.push(() => db.destroy());
  await migrateToLatest(db);
  await startSqliteWriteThread(db);
  return db;
}

const record = (id: string) => ({ id, nodeId: 'node-a', leaseSeconds: 300 });

describe('billing in SQLite’s write thread', () => {
  it('takes a batch the balances cannot all cover one by one: the uncovered are refused, nothing below zero', async () => {
    const db = await openWithThread();
    const rich = await seedQuotaHolder(db, { quota: 1000 });
    const poorKey = await seedQuotaHolder(db, { quota: 1000, remainQuota: 150 });
    const shortfalls = await reserveQuotaBatch(db, [
      { holder: rich, amount: 400, record: record('r1') },
      { holder: poorKey, amount: 100, record: record('p1') },
      { holder: rich, amount: 700, record: record('r2') },
      { holder: poorKey, amount: 100, record: record('p2') },
    ]);
    expect(shortfalls).toEqual([null, null, 'user', 'token']);
    expect(await holderBalances(db, rich)).toEqual({ user: 600, token: 600 });
    expect(await holderBalances(db, poorKey)).toEqual({ user: 900, token: 50 });
    const records = await db.selectFrom('quota_reservations').select('id').orderBy('id').execute();
    expect(records.map((row) => row.id)).toEqual(['p1', 'r1']);
    expect(sqliteWriteThreadOf(db)?.takesTransactions).toBe(true);
  });

  it('charges a cost above the reservation and the balance down to zero, the log saying what was charged', async () => {
    const db = await openWithThread();
    const holder = await seedQuotaHolder(db, { quota: 300 });
    expect(await reserveQuotaBatch(db, [{ holder, amount: 200, record: record('q1') }])).toEqual([null]);
    const ledger = quietLedger(db);
    await ledger.record({
      holder,
      reservationId: 'q1',
      channelId: holder.channelId,
      reserved: 200,
      // 450 asked, 300 there: 200 reserved + the last 100 of the balance.
      cost: 450,
      createdAt: 1,
      log: { user_id: holder.userId, username: 'u', model_name: 'm', channel_id: holder.channelId },
    });
    await ledger.close();
    expect(await holderBalances(db, holder)).toEqual({ user: 0, token: 0 });
    const logs = await db.selectFrom('logs').select(['quota', 'type']).execute();
    expect(logs.map((log) => [Number(log.quota), Number(log.type)])).toEqual([[300, LogType.consume]]);
    const user = await db
      .selectFrom('users')
      .select('used_quota')
      .where('id', '=', holder.userId)
      .executeTakeFirstOrThrow();
    expect(Number(user.used_quota)).toBe(300);
  });

  it('settles a request whose reservation recovery released meanwhile as if nothing had been reserved', async () => {
    const db = await openWithThread();
    const holder = await seedQuotaHolder(db, { quota: 1000 });
    await reserveQuotaBatch(db, [
      { holder, amount: 100, record: { id: 'gone', nodeId: 'node-dead', leaseSeconds: -10 } },
      { holder, amount: 100, record: record('kept') },
    ]);
    expect(await releaseAbandonedReservations(db, 'node-a')).toBe(1);
    expect(await holderBalances(db, holder)).toEqual({ user: 900, token: 900 });
    const ledger = quietLedger(db);
    const settle = (id: string) =>
      ledger.record({
        holder,
        reservationId: id,
        channelId: holder.channelId,
        reserved: 100,
        cost: 60,
        createdAt: 1,
        log: null,
      });
    await Promise.all([settle('gone'), settle('kept')]);
    await ledger.close();
    // Each charged 60 once: the released one from the balance, the kept one from its reservation.
    expect(await holderBalances(db, holder)).toEqual({ user: 880, token: 880 });
    expect(await db.selectFrom('quota_reservations').select('id').execute()).toEqual([]);
  });

  it('refunds a reservation once, and not at all when recovery gave it back first', async () => {
    const db = await openWithThread();
    const holder = await seedQuotaHolder(db, { quota: 1000 });
    await reserveQuotaBatch(db, [
      { holder, amount: 100, record: record('a') },
      { holder, amount: 100, record: { id: 'b', nodeId: 'node-dead', leaseSeconds: -10 } },
    ]);
    await releaseAbandonedReservations(db, 'node-a');
    await refundQuota(db, holder, 100, 'a');
    await refundQuota(db, holder, 100, 'a');
    await refundQuota(db, holder, 100, 'b');
    expect(await holderBalances(db, holder)).toEqual({ user: 1000, token: 1000 });
  });
});
