import { sql, type Kysely } from 'kysely';
import {
  MONTHS_AHEAD,
  MONTHS_BACK_AT_MOST,
  createMonthPartition,
  isPostgres,
  monthStart,
} from '../log-partitions';

/** The paging indexes of 0013: one per filter of the logs page, each ending in created_at, id. */
const PAGING_INDEXES: Array<[name: string, columns: string[]]> = [
  ['logs_created_at_id_index', ['created_at', 'id']],
  ['logs_user_id_created_at_id_index', ['user_id', 'created_at', 'id']],
  ['logs_username_created_at_id_index', ['username', 'created_at', 'id']],
  ['logs_token_name_created_at_id_index', ['token_name', 'created_at', 'id']],
  ['logs_model_name_created_at_id_index', ['model_name', 'created_at', 'id']],
  ['logs_channel_id_created_at_id_index', ['channel_id', 'created_at', 'id']],
  ['logs_type_created_at_id_index', ['type', 'created_at', 'id']],
];

/** The sequence behind logs.id (`public.logs_id_seq` as the first migration made it), quoted as needed. */
async function idSequence(db: Kysely<unknown>): Promise<string> {
  const { rows } = await sql<{ name: string | null }>`
    select pg_get_serial_sequence('logs', 'id') as name`.execute(db);
  const name = rows[0]?.name;
  if (!name)
    throw new Error('logs.id has no sequence of its own: the logs table is not the one Gatehouse made');
  return name;
}

async function createPagingIndexes(db: Kysely<unknown>): Promise<void> {
  for (const [name, columns] of PAGING_INDEXES) {
    await db.schema.createIndex(name).on('logs').columns(columns).execute();
  }
}

/**
 * PostgreSQL only (SQLite and MySQL keep one plain table): the logs table becomes partitioned by range of
 * created_at, one partition per UTC month (log-partitions.ts), so the retention drops a whole month at once
 * and each month's indexes stay the size of a month.
 *
 * A partitioned table's primary key must include the partition column: it is (id, created_at). Ids still come
 * from the table's one sequence, so they stay unique in practice and are never reused (the list, the drawer
 * and the export address a row by id; nothing inserts an id of its own but the import, into an empty table).
 *
 * Existing rows are copied into the new table (months back to the oldest row, at most 36; older rows and any
 * outside a month go to `logs_default`), then the old table is dropped and the indexes built once over the
 * copy. On a table of millions of rows this takes minutes, once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  const now = Math.floor(Date.now() / 1000);
  const { rows } = await sql<{ oldest: string | number | null }>`
    select min(created_at) as oldest from logs`.execute(db);
  const oldest = rows[0]?.oldest == null ? now : Number(rows[0].oldest);
  // The id sequence belongs to logs.id: freed first, or dropping the old table would drop it too.
  const sequence = await idSequence(db);
  await sql`alter sequence ${sql.raw(sequence)} owned by none`.execute(db);
  await sql`create table logs_partitioned (like logs including defaults)
    partition by range (created_at)`.execute(db);
  const first = Math.max(monthStart(oldest), monthStart(now, -MONTHS_BACK_AT_MOST));
  for (let start = first; start <= monthStart(now, MONTHS_AHEAD); start = monthStart(start, 1)) {
    await createMonthPartition(db, start, 'logs_partitioned');
  }
  await sql`create table logs_default partition of logs_partitioned default`.execute(db);
  await sql`insert into logs_partitioned select * from logs`.execute(db);
  await sql`drop table logs`.execute(db);
  await sql`alter table logs_partitioned rename to logs`.execute(db);
  await sql`alter table logs add constraint logs_pkey primary key (id, created_at)`.execute(db);
  await sql`alter sequence ${sql.raw(sequence)} owned by logs.id`.execute(db);
  await createPagingIndexes(db);
  await sql`analyze logs`.execute(db);
}

/** Back to one plain table with id as its primary key (ids are unique: they all came from the sequence). */
export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  const sequence = await idSequence(db);
  await sql`alter sequence ${sql.raw(sequence)} owned by none`.execute(db);
  await sql`create table logs_plain (like logs including defaults)`.execute(db);
  await sql`insert into logs_plain select * from logs`.execute(db);
  await sql`drop table logs`.execute(db);
  await sql`alter table logs_plain rename to logs`.execute(db);
  await sql`alter table logs add constraint logs_pkey primary key (id)`.execute(db);
  await sql`alter sequence ${sql.raw(sequence)} owned by logs.id`.execute(db);
  await createPagingIndexes(db);
}
