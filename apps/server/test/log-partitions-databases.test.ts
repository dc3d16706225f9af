import { afterAll, describe, expect, it } from 'vitest';
import { LogType, nowSeconds } from '@gatehouse/shared';
import { Migrator, sql } from 'kysely';
import { loadConfig } from '../src/config/config';
import { closeContext, createContext, type AppContext } from '../src/context';
import { createDatabase } from '../src/db/database';
import {
  MONTHS_AHEAD,
  MONTHS_BACK_AT_MOST,
  createMonthPartition,
  ensureLogPartitions,
  listMonthPartitions,
  monthStart,
  partitionName,
} from '../src/db/log-partitions';
import { migrations } from '../src/db/migrations/index';
import { pruneConsumptionLogs } from '../src/logs/log-retention';
import { externalDatabaseServers, isListening } from './support/external-databases';

/** PostgreSQL's logs table partitioned by month (migration 0017, db/log-partitions.ts). */
const postgres = externalDatabaseServers.find((server) => server.name === 'PostgreSQL')!;
const reachable = await isListening(postgres.port);
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

const DAY = 86_400;
const now = nowSeconds();

async function open(): Promise<AppContext> {
  const database = await postgres.create('gatehouse_partitions');
  cleanups.push(database.drop);
  const context = await createContext(
    loadConfig({ SQL_DSN: database.dsn, SESSION_SECRET: 'partitions-test' }),
  );
  cleanups.unshift(() => closeContext(context));
  return context;
}

const log = (createdAt: number, type: number = LogType.consume) => ({
  type,
  created_at: createdAt,
  user_id: 1,
  username: 'root',
  model_name: 'gpt-4o',
  quota: 10,
});

/** Which table of the partitioned logs holds each row, by id. */
async function placeOfRows(context: AppContext): Promise<Map<number, string>> {
  const { rows } = await sql<{ id: number; place: string }>`
    select id, tableoid::regclass::text as place from logs`.execute(context.db);
  return new Map(rows.map((row) => [row.id, row.place]));
}

describe.skipIf(!reachable)('logs partitioned by month on PostgreSQL', () => {
  it('0017 moves the existing rows into month partitions with their ids, and new ids follow them', async () => {
    const database = await postgres.create('gatehouse_partitions');
    cleanups.push(database.drop);
    const config = loadConfig({ SQL_DSN: database.dsn, SESSION_SECRET: 'partitions-test' });
    const db = await createDatabase(config);
    await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo('0015-oidc-id');
    const old = [log(now - 400 * DAY), log(now - 40 * DAY, LogType.topup), log(now), log(0)];
    const inserted = await db.insertInto('logs').values(old).returning('id').execute();
    await db.destroy();

    const context = await createContext(config);
    cleanups.unshift(() => closeContext(context));
    const places = await placeOfRows(context);
    const ids = inserted.map((row) => row.id);
    expect(places.get(ids[0]!)).toBe(partitionName(monthStart(now - 400 * DAY)));
    expect(places.get(ids[1]!)).toBe(partitionName(monthStart(now - 40 * DAY)));
    expect(places.get(ids[2]!)).toBe(partitionName(monthStart(now)));
    // 1970 is older than the months made: the default partition holds it.
    expect(places.get(ids[3]!)).toBe('logs_default');
    const months = await listMonthPartitions(context.db);
    expect(months).toContain(partitionName(monthStart(now, MONTHS_AHEAD)));
    // Months are made back to the oldest row, 36 at most (here the 1970 row asks for more).
    expect(months[0]).toBe(partitionName(monthStart(now, -MONTHS_BACK_AT_MOST)));

    const next = await context.db
      .insertInto('logs')
      .values(log(now))
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(next.id).toBeGreaterThan(Math.max(...ids));
    const { rows: key } = await sql<{ definition: string }>`
      select pg_get_constraintdef(oid) as definition from pg_constraint
      where conrelid = 'logs'::regclass and contype = 'p'`.execute(context.db);
    expect(key[0]?.definition).toBe('PRIMARY KEY (id, created_at)');
    // The list still answers every row by the paging indexes.
    const { rows: indexes } = await sql<{ name: string }>`
      select indexname as name from pg_indexes where tablename = 'logs'`.execute(context.db);
    expect(indexes.map((index) => index.name)).toEqual(
      expect.arrayContaining(['logs_created_at_id_index', 'logs_type_created_at_id_index']),
    );
  });

  it('retention drops a month wholly past LogRetentionDays and keeps its top-ups, then prunes by batches', async () => {
    const context = await open();
    await context.options.set('LogRetentionDays', '60');
    // A server that has run for months has their partitions (a new database has this month and the next).
    for (let start = monthStart(now - 100 * DAY); start < monthStart(now); start = monthStart(start, 1)) {
      await createMonthPartition(context.db, start);
    }
    const rows = [
      log(now - 100 * DAY),
      log(now - 100 * DAY - 1, LogType.error),
      log(now - 100 * DAY, LogType.topup),
      log(now - 61 * DAY),
      log(now - 10 * DAY),
    ];
    const ids = (await context.db.insertInto('logs').values(rows).returning('id').execute()).map(
      (row) => row.id,
    );
    const expiredMonth = partitionName(monthStart(now - 100 * DAY));
    expect(await listMonthPartitions(context.db)).toContain(expiredMonth);

    const result = await pruneConsumptionLogs(context, { pauseMs: 0 });
    expect(result.deleted).toBe(3);
    expect(await listMonthPartitions(context.db)).not.toContain(expiredMonth);
    const places = await placeOfRows(context);
    expect([...places.keys()].sort((a, b) => a - b)).toEqual([ids[2], ids[4]]);
    // The kept top-up lost its month: it lives on in the default partition, id and time unchanged.
    expect(places.get(ids[2]!)).toBe('logs_default');
    const topup = await context.db
      .selectFrom('logs')
      .selectAll()
      .where('id', '=', ids[2]!)
      .executeTakeFirstOrThrow();
    expect(topup).toMatchObject({ type: LogType.topup, created_at: now - 100 * DAY, quota: 10 });
  });

  it('makes a missing month ahead, moving rows the default partition already holds for it', async () => {
    const context = await open();
    const later = monthStart(now, MONTHS_AHEAD + 2) + 5 * DAY;
    const { id } = await context.db
      .insertInto('logs')
      .values(log(later))
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await placeOfRows(context)).get(id)).toBe('logs_default');
    const created = await ensureLogPartitions(context.db, later);
    expect(created).toContain(partitionName(monthStart(later)));
    expect((await placeOfRows(context)).get(id)).toBe(partitionName(monthStart(later)));
    expect(await ensureLogPartitions(context.db, later)).toEqual([]);
  });

  it('makes each missing month once when several servers ask at the same moment', async () => {
    const context = await open();
    const later = monthStart(now, MONTHS_AHEAD + 8);
    // Eight callers at once on separate connections of the pool: one makes the months, the others wait and see them.
    const results = await Promise.all(
      Array.from({ length: 8 }, () => ensureLogPartitions(context.db, later)),
    );
    const made = results.flat();
    expect(new Set(made).size).toBe(made.length);
    expect(made).toContain(partitionName(monthStart(later)));
  });
});
