import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LogType, nowSeconds } from '@gatehouse/shared';
import { refundQuota, reserveQuota, type QuotaHolder } from '../src/billing/quota-reservation';
import {
  RELEASE_NOTE,
  ReservationRecordsError,
  releaseAbandonedReservations,
} from '../src/billing/reservation-recovery';
import { SettlementLedger } from '../src/billing/settlement-ledger';
import { holderBalances, quietLedger, seedQuotaHolder } from './support/quota-holder';
import { createTestApp, type TestApp } from './test-app';

/**
 * The durable side of a reservation: its record comes and goes with the quota it holds, and one whose server
 * stopped renewing it is given back once, logged, and never twice — also when its request settles after all.
 */
let test: TestApp;
let ledger: SettlementLedger;
const OTHER_HOST_NODE = 'another-host/4242/deadbeef';

beforeEach(async () => {
  test = await createTestApp();
  ledger = quietLedger(test.context.db);
});
afterEach(async () => {
  await ledger.close();
  await test.close();
});

const seed = () => seedQuotaHolder(test.context.db);

async function state(holder: QuotaHolder) {
  const { db } = test.context;
  const balances = await holderBalances(db, holder);
  const records = await db.selectFrom('quota_reservations').selectAll().orderBy('id').execute();
  const logs = await db
    .selectFrom('logs')
    .select(['quota', 'content', 'request_id'])
    .where('type', '=', LogType.consume)
    .execute();
  return { ...balances, records, logs };
}

const record = (id: string, nodeId = OTHER_HOST_NODE) => ({ id, nodeId, leaseSeconds: 300 });

async function expireLeases() {
  await test.context.db
    .updateTable('quota_reservations')
    .set({ lease_expires_at: nowSeconds() - 1 })
    .execute();
}

describe('reservation records', () => {
  it('are written with the reservation and go with its settlement or refund', async () => {
    const holder = await seed();
    expect(await reserveQuota(test.context.db, holder, 100, record('settled'))).toBeNull();
    expect(await reserveQuota(test.context.db, holder, 50, record('refunded'))).toBeNull();
    expect((await state(holder)).records.map((row) => [row.id, Number(row.amount)])).toEqual([
      ['refunded', 50],
      ['settled', 100],
    ]);
    const committed = ledger.record({
      holder,
      reservationId: 'settled',
      channelId: holder.channelId,
      reserved: 100,
      cost: 30,
      createdAt: 1,
      log: { user_id: holder.userId, request_id: 'settled' },
    });
    await committed;
    await refundQuota(test.context.db, holder, 50, 'refunded');
    // Refunding again (a retry, or recovery got there first) gives nothing twice.
    await refundQuota(test.context.db, holder, 50, 'refunded');
    const after = await state(holder);
    expect(after).toMatchObject({ user: 970, token: 970, records: [] });
    expect(after.logs.map((log) => Number(log.quota))).toEqual([30]);
  });

  it('a refused reservation leaves no record', async () => {
    const holder = await seed();
    expect(await reserveQuota(test.context.db, holder, 5000, record('too-big'))).toBe('user');
    expect((await state(holder)).records).toEqual([]);
  });

  it('are released once their lease runs out, logged with quota 0, and a late settlement then charges in full', async () => {
    const holder = await seed();
    await reserveQuota(test.context.db, holder, 100, record('late'));
    await reserveQuota(test.context.db, holder, 200, record('lost'));
    // Within the lease, a server of another host may still be streaming: nothing is touched.
    expect(await releaseAbandonedReservations(test.context.db, test.context.reservations.nodeId)).toBe(0);
    await expireLeases();
    expect(await releaseAbandonedReservations(test.context.db, test.context.reservations.nodeId)).toBe(2);
    expect(await releaseAbandonedReservations(test.context.db, test.context.reservations.nodeId)).toBe(0);
    const released = await state(holder);
    expect(released).toMatchObject({ user: 1000, token: 1000, records: [] });
    expect(released.logs.map((log) => [log.request_id, Number(log.quota)]).sort()).toEqual([
      ['late', 0],
      ['lost', 0],
    ]);
    expect(released.logs.every((log) => log.content.startsWith(RELEASE_NOTE))).toBe(true);
    // The server was alive after all and settles: charged as if nothing had been reserved, logs still add up.
    await ledger.record({
      holder,
      reservationId: 'late',
      channelId: holder.channelId,
      reserved: 100,
      cost: 40,
      createdAt: 1,
      log: { user_id: holder.userId, request_id: 'late' },
    });
    const settled = await state(holder);
    expect(settled).toMatchObject({ user: 960, token: 960 });
    expect(settled.logs.reduce((sum, log) => sum + Number(log.quota), 0)).toBe(40);
  });

  it('of a process of this host that is gone are released at once', async () => {
    const holder = await seed();
    const [host] = test.context.reservations.nodeId.split('/');
    // pid 2^22 + 1 is above Linux's pid_max: no such process runs.
    await reserveQuota(test.context.db, holder, 100, record('orphan', `${host}/4194305/0badf00d`));
    await reserveQuota(test.context.db, holder, 100, record('mine', test.context.reservations.nodeId));
    expect(await releaseAbandonedReservations(test.context.db, test.context.reservations.nodeId)).toBe(1);
    expect((await state(holder)).records.map((row) => row.id)).toEqual(['mine']);
  });

  it('refuses to release records from a newer version or with a nonsense amount, touching nothing', async () => {
    const holder = await seed();
    await reserveQuota(test.context.db, holder, 100, record('newer'));
    await test.context.db.updateTable('quota_reservations').set({ format_version: 2 }).execute();
    await expireLeases();
    await expect(
      releaseAbandonedReservations(test.context.db, test.context.reservations.nodeId),
    ).rejects.toThrow(ReservationRecordsError);
    await expect(
      releaseAbandonedReservations(test.context.db, test.context.reservations.nodeId),
    ).rejects.toThrow(/newer \(format 2/);
    expect(await state(holder)).toMatchObject({ user: 900, token: 900 });
  });
});
