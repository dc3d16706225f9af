import { LogType } from '@gatehouse/shared';
import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * On PostgreSQL the logs table is partitioned by range of created_at, one partition per calendar month (UTC),
 * `logs_pYYYYMM`, plus `logs_default` for rows outside every month made (imported old rows, a clock far off).
 * Migration 0017 made it; this file keeps it: months are created ahead by the master node's hourly job, and the
 * retention drops a month that is wholly past LogRetentionDays instead of deleting its rows one batch at a time.
 * SQLite and MySQL keep one plain table.
 */

/** Months made ahead of the present one, so a settlement never waits for one (the job runs hourly). */
export const MONTHS_AHEAD = 3;
/** How far back the migration makes months for existing rows; older rows go to the default partition. */
export const MONTHS_BACK_AT_MOST = 36;

const PARTITION_NAME = /^logs_p(\d{4})(\d{2})$/;

/** The rows the retention removes; top-up, management and system rows are kept whatever their age. */
export const PRUNED_LOG_TYPES = [LogType.consume, LogType.error];

export function isPostgres<DB>(db: Kysely<DB>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Epoch seconds of the first instant of the UTC month `offset` months after the one holding `seconds`. */
export function monthStart(seconds: number, offset = 0): number {
  const date = new Date(seconds * 1000);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offset, 1) / 1000;
}

export function partitionName(start: number): string {
  const date = new Date(start * 1000);
  return `logs_p${date.getUTCFullYear()}${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The [start, end) of a month partition named logs_pYYYYMM; null for any other name. */
export function partitionRange(name: string): [number, number] | null {
  const match = PARTITION_NAME.exec(name);
  if (!match) return null;
  const start = Date.UTC(Number(match[1]), Number(match[2]) - 1, 1) / 1000;
  return [start, monthStart(start, 1)];
}

/** Is `logs` a partitioned table here (PostgreSQL after 0017)? */
export async function isLogsPartitioned<DB>(db: Kysely<DB>): Promise<boolean> {
  if (!isPostgres(db)) return false;
  const { rows } = await sql<{ found: number }>`
    select 1 as found from pg_partitioned_table p join pg_class c on c.oid = p.partrelid
    where c.relname = 'logs' and c.relnamespace = current_schema()::regnamespace`.execute(db);
  return rows.length > 0;
}

/** The month partitions of `table` by name (the default partition is not listed). */
export async function listMonthPartitions<DB>(db: Kysely<DB>, table = 'logs'): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select child.relname as name from pg_inherits i
    join pg_class parent on parent.oid = i.inhparent
    join pg_class child on child.oid = i.inhrelid
    where parent.relname = ${table} and parent.relnamespace = current_schema()::regnamespace`.execute(db);
  return rows
    .map((row) => row.name)
    .filter((name) => PARTITION_NAME.test(name))
    .sort();
}

/** Creates the month partition starting at `start` of `table` unless it exists. */
export async function createMonthPartition<DB>(db: Kysely<DB>, start: number, table = 'logs'): Promise<void> {
  await sql`create table if not exists ${sql.id(partitionName(start))} partition of ${sql.id(table)}
    for values from (${sql.lit(start)}) to (${sql.lit(monthStart(start, 1))})`.execute(db);
}

/** The advisory lock that keeps two servers starting at once from making the same month twice. */
const PARTITION_LOCK = 0x6c6f6773; // 'logs'

/**
 * Makes sure the present month and the next MONTHS_AHEAD exist (at the start and hourly). A month some of whose
 * rows already sit in the default partition (a server that was stopped for months, a clock that ran ahead) is
 * made by moving those rows into a new table and attaching it. All in one transaction under an advisory lock, so
 * several servers starting together on one database wait for each other instead of failing on the same month.
 */
export async function ensureLogPartitions<DB>(db: Kysely<DB>, now: number): Promise<string[]> {
  if (!(await isLogsPartitioned(db))) return [];
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${sql.lit(PARTITION_LOCK)})`.execute(trx);
    const existing = new Set(await listMonthPartitions(trx));
    const created: string[] = [];
    for (let offset = 0; offset <= MONTHS_AHEAD; offset += 1) {
      const start = monthStart(now, offset);
      const name = partitionName(start);
      if (existing.has(name)) continue;
      const end = monthStart(start, 1);
      const { rows } = await sql<{ found: number }>`select 1 as found from logs_default
        where created_at >= ${sql.lit(start)} and created_at < ${sql.lit(end)} limit 1`.execute(trx);
      if (rows.length === 0) await createMonthPartition(trx, start);
      else {
        await sql`create table ${sql.id(name)} (like logs including defaults)`.execute(trx);
        await sql`with moved as (delete from logs_default
            where created_at >= ${sql.lit(start)} and created_at < ${sql.lit(end)} returning *)
          insert into ${sql.id(name)} select * from moved`.execute(trx);
        await sql`alter table logs attach partition ${sql.id(name)}
          for values from (${sql.lit(start)}) to (${sql.lit(end)})`.execute(trx);
      }
      created.push(name);
    }
    return created;
  });
}

/**
 * Drops every month partition that ends at or before `before`: in one transaction it is detached, its rows
 * the retention keeps (top-ups, management, system) are written back into `logs` (no month holds them any
 * more, so they land in the default partition, ids and all), and it is dropped. Answers the rows removed.
 */
export async function dropExpiredLogPartitions<DB>(db: Kysely<DB>, before: number): Promise<number> {
  if (!(await isLogsPartitioned(db))) return 0;
  let removed = 0;
  for (const name of await listMonthPartitions(db)) {
    const range = partitionRange(name);
    if (!range || range[1] > before) continue;
    removed += await db.transaction().execute(async (trx) => {
      await sql`alter table logs detach partition ${sql.id(name)}`.execute(trx);
      const { rows } = await sql<{ count: string | number }>`
        select count(*) as count from ${sql.id(name)}
        where type in (${sql.join(PRUNED_LOG_TYPES.map((type) => sql.lit(type)))})`.execute(trx);
      await sql`insert into logs select * from ${sql.id(name)}
        where type not in (${sql.join(PRUNED_LOG_TYPES.map((type) => sql.lit(type)))})`.execute(trx);
      await sql`drop table ${sql.id(name)}`.execute(trx);
      return Number(rows[0]?.count ?? 0);
    });
  }
  return removed;
}
