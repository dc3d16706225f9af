import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LogType } from '@gatehouse/shared';
import type { Config } from '../config/config';
import { createDatabase, type Db } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { WriteThreadLost } from '../db/sqlite-write-thread';
import { externalDatabaseServers, isListening } from '../../test/support/external-databases';
import { holderBalances, quietLedger, seedQuotaHolder } from '../../test/support/quota-holder';
import { reserveQuota } from './quota-reservation';
import type { Settlement } from './settlement-ledger';

/**
 * A settlement commit whose outcome is unknown: a database over the network reports a failure (the
 * connection dropped as it committed), yet the transaction went through — or it really failed. A withheld
 * answer (a JSON body) waits for the next try, which tells which, and is then delivered: charged exactly once
 * either way. On SQLite a failed commit committed nothing: the withheld answer is refunded at once — unless
 * the write thread (SQLITE_WRITE_THREAD=on) stopped while running it, which leaves it in doubt as well.
 */
const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Failure = 'after commit' | 'before commit' | 'write thread lost after commit' | null;

type Where = Pick<Config, 'databaseKind' | 'sqlDsn' | 'sqlitePath'>;

async function sqliteDatabase(): Promise<Where> {
  const folder = mkdtempSync(path.join(tmpdir(), 'gatehouse-in-doubt-'));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  return { databaseKind: 'sqlite', sqlDsn: '', sqlitePath: path.join(folder, 'test.db') };
}

/** The database, and a view of it whose next transaction fails as told (once). */
async function openDatabases(
  where: Where,
): Promise<{ db: Db; flaky: Db; failNext: (failure: Failure) => void }> {
  const db = await createDatabase(where);
  cleanups.push(() => db.destroy());
  await migrateToLatest(db);
  let next: Failure = null;
  const lost = () =>
    Object.assign(new Error('Connection lost: the server closed the connection'), {
      code: 'PROTOCOL_CONNECTION_LOST',
    });
  const flaky = new Proxy(db, {
    get(target, property) {
      if (property !== 'transaction') {
        // Kysely keeps its state in private fields: its methods must see the database itself as `this`.
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      }
      return () => {
        const builder = target.transaction();
        return {
          execute: async <T>(work: Parameters<typeof builder.execute<T>>[0]) => {
            const failure = next;
            next = null;
            if (failure === 'before commit') throw lost();
            const result = await builder.execute(work);
            if (failure === 'after commit') throw lost();
            if (failure === 'write thread lost after commit') {
              throw new WriteThreadLost('the SQLite write thread stopped while running a transaction');
            }
            return result;
          },
        };
      };
    },
  });
  return { db, flaky, failNext: (failure) => (next = failure) };
}

async function reservedSettlement(db: Db, id: string, isWithheld: boolean): Promise<Settlement> {
  const holder = await seedQuotaHolder(db);
  expect(await reserveQuota(db, holder, 100, { id, nodeId: 'node-a', leaseSeconds: 300 })).toBeNull();
  return {
    holder,
    reservationId: id,
    channelId: holder.channelId,
    reserved: 100,
    cost: 30,
    createdAt: Math.floor(Date.now() / 1000),
    isWithheld,
    log: {
      user_id: holder.userId,
      username: 'u',
      token_name: 'ledger key',
      model_name: 'gpt-4o-mini',
      channel_id: holder.channelId,
      request_id: id,
      content: '',
    },
  };
}

async function loggedCharges(db: Db, requestId: string) {
  const rows = await db
    .selectFrom('logs')
    .select(['type', 'quota'])
    .where('request_id', '=', requestId)
    .execute();
  return rows.map((row) => ({ type: Number(row.type), quota: Number(row.quota) }));
}

const reachable = await Promise.all(
  externalDatabaseServers.map(async (server) => [server, await isListening(server.port)] as const),
);

describe('a settlement whose commit is in doubt', () => {
  for (const [server, isUp] of reachable) {
    for (const failure of ['after commit', 'before commit'] as const) {
      it.skipIf(!isUp)(
        `on ${server.name}, delivers a withheld answer once its charge is known, charged once (failure ${failure})`,
        async () => {
          const database = await server.create('gatehouse_in_doubt');
          cleanups.push(database.drop);
          const { db, flaky, failNext } = await openDatabases({
            databaseKind: server.name === 'PostgreSQL' ? 'postgres' : 'mysql',
            sqlDsn: database.dsn,
            sqlitePath: '',
          });
          const id = `in-doubt-${failure.split(' ')[0]}`;
          const settlement = await reservedSettlement(db, id, true);
          const ledger = quietLedger(flaky);
          failNext(failure);
          // The answer is delivered when this resolves; it must not reject (a 503 for an answer that is charged).
          await expect(ledger.record(settlement)).resolves.toBeUndefined();
          await ledger.close();
          expect(await holderBalances(db, settlement.holder)).toEqual({ user: 970, token: 970 });
          expect(await loggedCharges(db, id)).toEqual([{ type: LogType.consume, quota: 30 }]);
          expect(await db.selectFrom('quota_reservations').select('id').execute()).toEqual([]);
        },
      );
    }
  }

  it('on SQLite, where a failed commit committed nothing, refunds a withheld answer at once', async () => {
    const { db, flaky, failNext } = await openDatabases(await sqliteDatabase());
    const settlement = await reservedSettlement(db, 'refused', true);
    const ledger = quietLedger(flaky);
    failNext('before commit');
    await expect(ledger.record(settlement)).rejects.toThrow('Connection lost');
    await ledger.close();
    expect(await holderBalances(db, settlement.holder)).toEqual({ user: 1000, token: 1000 });
    expect(await loggedCharges(db, 'refused')).toEqual([{ type: LogType.error, quota: 0 }]);
  });

  it('on SQLite, when the write thread stopped while committing, waits like a network database and charges once', async () => {
    const { db, flaky, failNext } = await openDatabases(await sqliteDatabase());
    const settlement = await reservedSettlement(db, 'thread-lost', true);
    const ledger = quietLedger(flaky);
    failNext('write thread lost after commit');
    // In doubt: the next try finds the record gone (the commit went through) and delivers the answer.
    await expect(ledger.record(settlement)).resolves.toBeUndefined();
    await ledger.close();
    expect(await holderBalances(db, settlement.holder)).toEqual({ user: 970, token: 970 });
    expect(await loggedCharges(db, 'thread-lost')).toEqual([{ type: LogType.consume, quota: 30 }]);
    expect(await db.selectFrom('quota_reservations').select('id').execute()).toEqual([]);
  });

  it('tells a stream at once (its client has the answer already) and still charges it once', async () => {
    const { db, flaky, failNext } = await openDatabases(await sqliteDatabase());
    const settlement = await reservedSettlement(db, 'in-doubt-stream', false);
    const ledger = quietLedger(flaky);
    failNext('after commit');
    await expect(ledger.record(settlement)).rejects.toThrow('Connection lost');
    await ledger.close();
    expect(await holderBalances(db, settlement.holder)).toEqual({ user: 970, token: 970 });
    expect(await loggedCharges(db, 'in-doubt-stream')).toEqual([{ type: LogType.consume, quota: 30 }]);
  });
});
