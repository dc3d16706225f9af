import Sqlite from 'libsql';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LogType, nowSeconds } from '@gatehouse/shared';
import type { QuotaHolder } from '../src/billing/quota-reservation';
import { RELEASE_NOTE, releaseAbandonedReservations, renewLeases } from '../src/billing/reservation-recovery';
import { SettlementLedger, WITHHELD_NOTE, type Settlement } from '../src/billing/settlement-ledger';
import { holderBalances, quietLedger, seedQuotaHolder, type SeededHolder } from './support/quota-holder';
import { createTestApp, type TestApp } from './test-app';

/**
 * What happens to a reservation when the database refuses the write that ends it: a withheld answer is not
 * charged, a stream's charge is still written, a refund is retried by its own server, a finished request's
 * lease is no longer renewed (so it never outlives it), and nothing is ever given or charged twice. The
 * database refuses for real: a second connection holds SQLite's write lock.
 */
let test: TestApp;
let ledger: SettlementLedger;

beforeEach(async () => {
  test = await createTestApp();
  ledger = quietLedger(test.context.db);
  // The writes below give up after 100 ms instead of 5 s while the lock is held.
  await sql`PRAGMA busy_timeout = 100`.execute(test.context.db);
});
afterEach(async () => {
  await ledger.close();
  await test.close();
});

/** Takes SQLite's write lock from another connection, as another process would; answers its release. */
function lockWrites(): () => void {
  const other = new Sqlite(test.context.config.sqlitePath);
  other.exec('BEGIN IMMEDIATE');
  return () => {
    other.exec('COMMIT');
    other.close();
  };
}

const seed = () => seedQuotaHolder(test.context.db);

async function state(holder: QuotaHolder) {
  const { db } = test.context;
  const balances = await holderBalances(db, holder);
  const records = await db.selectFrom('quota_reservations').select('id').orderBy('id').execute();
  const logs = await db
    .selectFrom('logs')
    .select(['request_id', 'type', 'quota', 'content'])
    .orderBy('request_id')
    .execute();
  return {
    ...balances,
    records: records.map((row) => row.id),
    logs: logs.map((log) => ({ ...log, quota: Number(log.quota) })),
  };
}

function settlementOf(holder: SeededHolder, id: string, cost: number): Settlement {
  return {
    holder,
    reservationId: id,
    channelId: holder.channelId,
    reserved: 100,
    cost,
    createdAt: nowSeconds(),
    log: { user_id: holder.userId, request_id: id, content: 'priced' },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a reservation whose end the database refused', () => {
  it('of a withheld answer is refunded, of a stream the client got part of is charged, each once', async () => {
    const holder = await seed();
    const { reservations } = test.context;
    expect(await reservations.reserve(holder, 100, 'json')).toBeNull();
    expect(await reservations.reserve(holder, 100, 'stream')).toBeNull();
    const unlock = lockWrites();
    const json = ledger.record({ ...settlementOf(holder, 'json', 30), isWithheld: true });
    const stream = ledger.record(settlementOf(holder, 'stream', 40));
    await expect(json).rejects.toThrow(/locked|busy/i);
    await expect(stream).rejects.toThrow(/locked|busy/i);
    expect((await state(holder)).records).toEqual(['json', 'stream']);
    unlock();
    await ledger.flush();
    const after = await state(holder);
    expect(after).toMatchObject({ user: 960, token: 960, records: [] });
    expect(after.logs).toEqual([
      { request_id: 'json', type: LogType.error, quota: 0, content: WITHHELD_NOTE },
      { request_id: 'stream', type: LogType.consume, quota: 40, content: 'priced' },
    ]);
  });

  it('is not charged again when its first commit went through unreported', async () => {
    const holder = await seed();
    expect(await test.context.reservations.reserve(holder, 100, 'twice')).toBeNull();
    await ledger.record(settlementOf(holder, 'twice', 30));
    // The same settlement again, as the retry of a commit whose answer the connection lost would be.
    await ledger.record(settlementOf(holder, 'twice', 30));
    const after = await state(holder);
    expect(after).toMatchObject({ user: 970, token: 970, records: [] });
    expect(after.logs.map((log) => [log.request_id, log.quota])).toEqual([['twice', 30]]);
  });

  it('of a failed request is refunded by its own server once the database is back, never twice', async () => {
    const holder = await seed();
    const { reservations } = test.context;
    expect(await reservations.reserve(holder, 100, 'failed')).toBeNull();
    reservations.finished('failed');
    const unlock = lockWrites();
    await expect(reservations.refund(holder, 100, 'failed')).rejects.toThrow(/locked|busy/i);
    expect((await state(holder)).user).toBe(900);
    unlock();
    // Retried every second by the keeper itself.
    for (let waited = 0; waited < 5_000 && (await state(holder)).records.length > 0; waited += 100) {
      await sleep(100);
    }
    // Recovery finds nothing left to give back.
    await test.context.db.updateTable('quota_reservations').set({ lease_expires_at: 0 }).execute();
    expect(await releaseAbandonedReservations(test.context.db, reservations.nodeId)).toBe(0);
    expect(await state(holder)).toMatchObject({ user: 1000, token: 1000, records: [], logs: [] });
  });

  it('of a finished request is no longer renewed, and its own server releases it once its lease ran out', async () => {
    const holder = await seed();
    const { db, reservations } = test.context;
    expect(await reservations.reserve(holder, 100, 'running')).toBeNull();
    expect(await reservations.reserve(holder, 100, 'finished')).toBeNull();
    reservations.finished('finished');
    await db
      .updateTable('quota_reservations')
      .set({ lease_expires_at: nowSeconds() - 1 })
      .execute();
    // What the keeper's renewal timer does: only the requests it still runs.
    await renewLeases(db, reservations.nodeId, ['running']);
    const isRunning = (id: string) => id === 'running';
    expect(await releaseAbandonedReservations(db, reservations.nodeId, isRunning)).toBe(1);
    expect(await releaseAbandonedReservations(db, reservations.nodeId, isRunning)).toBe(0);
    const released = await state(holder);
    expect(released).toMatchObject({ user: 900, token: 900, records: ['running'] });
    expect(released.logs.map((log) => [log.request_id, log.quota])).toEqual([['finished', 0]]);
    expect(released.logs[0].content.startsWith(RELEASE_NOTE)).toBe(true);
    // Its refund, retried late, gives nothing twice; its settlement, late, is charged as if unreserved.
    await reservations.refund(holder, 100, 'finished');
    expect((await state(holder)).user).toBe(900);
    await ledger.record(settlementOf(holder, 'finished', 25));
    expect(await state(holder)).toMatchObject({ user: 875, token: 875 });
  });
});
