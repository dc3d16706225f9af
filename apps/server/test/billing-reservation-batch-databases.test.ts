import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config';
import { closeContext, createContext, type AppContext } from '../src/context';
import { ReservationKeeper } from '../src/billing/reservation-keeper';
import { holderBalances, seedQuotaHolder, silentLog } from './support/quota-holder';
import { externalDatabaseServers, isListening } from './support/external-databases';

/**
 * Reservations on PostgreSQL and MySQL/MariaDB go in one transaction per user and event-loop turn: every
 * request of one user (a company's key used by many agents) locks the same row, so one transaction each
 * waited for the commit before it — a cap of one commit's time (an fsync) per request. Other users' batches
 * run beside it on the pool.
 */
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function openInstance(dsn: string, isMasterNode = true): Promise<AppContext> {
  const config = loadConfig({ SQL_DSN: dsn, SESSION_SECRET: 'reservation-batch-databases-test' });
  const context = await createContext({ ...config, isMasterNode });
  cleanups.unshift(() => closeContext(context));
  return context;
}

/** Holds the user's row locked, as another transaction under way would, until the answered function is called. */
async function lockUserRow(context: AppContext, userId: number): Promise<() => Promise<void>> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const holding = context.db.transaction().execute(async (trx) => {
    await sql`SELECT quota FROM users WHERE id = ${userId} FOR UPDATE`.execute(trx);
    locked();
    await released;
  });
  await isLocked;
  return async () => {
    release();
    await holding;
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

for (const server of externalDatabaseServers) {
  const reachable = await isListening(server.port);
  describe.skipIf(!reachable)(`reservations on ${server.name}`, () => {
    it('never overdraws when many requests of one user race on two instances', async () => {
      const database = await server.create('gatehouse_reserve_batch');
      cleanups.push(database.drop);
      const first = await openInstance(database.dsn);
      const second = await openInstance(database.dsn, false);
      const keepers = [
        new ReservationKeeper(first.db, silentLog),
        new ReservationKeeper(second.db, silentLog),
      ];
      const holder = await seedQuotaHolder(first.db, { quota: 1000, remainQuota: 1000 });
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, index) => keepers[index % 2].reserve(holder, 90, `race-${index}`)),
      );
      expect(results.filter((result) => result === null)).toHaveLength(11);
      expect(results.filter((result) => result !== null).every((result) => result === 'user')).toBe(true);
      expect(await holderBalances(first.db, holder)).toEqual({ user: 10, token: 10 });
      const records = await first.db.selectFrom('quota_reservations').select('amount').execute();
      expect(records.map((record) => Number(record.amount))).toEqual(Array(11).fill(90));
    });

    it("takes a waiting user's requests together, and lets other users' requests pass meanwhile", async () => {
      const database = await server.create('gatehouse_reserve_batch');
      cleanups.push(database.drop);
      const context = await openInstance(database.dsn);
      const keeper = new ReservationKeeper(context.db, silentLog);
      const busy = await seedQuotaHolder(context.db, { quota: 10_000, remainQuota: 10_000 });
      const other = await seedQuotaHolder(context.db, { quota: 10_000, remainQuota: 10_000 });
      const unlock = await lockUserRow(context, busy.userId);

      // The first request of the busy user waits for the lock; the five after it queue behind it.
      const waiting = [keeper.reserve(busy, 100, 'busy-0')];
      await turn();
      await turn();
      for (let index = 1; index <= 5; index += 1) waiting.push(keeper.reserve(busy, 100, `busy-${index}`));
      // Another user's reservation is not held up by the busy user's.
      expect(await keeper.reserve(other, 100, 'other-0')).toBeNull();
      expect(await holderBalances(context.db, other)).toEqual({ user: 9_900, token: 9_900 });

      await unlock();
      expect(await Promise.all(waiting)).toEqual(Array(6).fill(null));
      expect(await holderBalances(context.db, busy)).toEqual({ user: 9_400, token: 9_400 });
      if (server.name === 'PostgreSQL') {
        // Each row's xmin is the transaction that wrote it: the five queued requests went in one.
        const { rows } = await sql<{ transactions: string }>`
          SELECT count(DISTINCT xmin::text) AS transactions FROM quota_reservations WHERE user_id = ${busy.userId}
        `.execute(context.db);
        expect(Number(rows[0].transactions)).toBe(2);
      }
    });

    it('still refuses exactly the requests a balance cannot cover when they come together', async () => {
      const database = await server.create('gatehouse_reserve_batch');
      cleanups.push(database.drop);
      const context = await openInstance(database.dsn);
      const keeper = new ReservationKeeper(context.db, silentLog);
      const holder = await seedQuotaHolder(context.db, { quota: 1000, remainQuota: 450 });
      const results = await Promise.all([
        keeper.reserve(holder, 300, 'a'),
        keeper.reserve(holder, 300, 'b'),
        keeper.reserve(holder, 150, 'c'),
      ]);
      expect(results).toEqual([null, 'token', null]);
      expect(await holderBalances(context.db, holder)).toEqual({ user: 550, token: 0 });
    });
  });
}
