import { existsSync } from 'node:fs';
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect, sql } from 'kysely';
import Sqlite from 'libsql';

/** A one-api or new-api database, read only: rows come back as plain records. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SourceDb = Kysely<any>;
export type SourceRow = Record<string, unknown>;

export type SourceKind = 'postgres' | 'mysql' | 'sqlite';

/** The source is not a one-api/new-api database, or not there: nothing was written. */
export class ImportRefusedError extends Error {}

export function sourceKindOf(from: string): SourceKind {
  if (/^postgres(ql)?:\/\//i.test(from)) return 'postgres';
  if (/^mysql:\/\//i.test(from)) return 'mysql';
  return 'sqlite';
}

/** Opens the source named by a DSN (postgres://, mysql://) or the path of a SQLite file; never creates one. */
export async function openSource(from: string): Promise<SourceDb> {
  const kind = sourceKindOf(from);
  if (kind === 'postgres') {
    const { default: pg } = await import('pg');
    pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
    return new Kysely({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: from, max: 2 }) }),
    });
  }
  if (kind === 'mysql') {
    const { createPool } = await import('mysql2');
    return new Kysely({
      dialect: new MysqlDialect({
        pool: createPool({ uri: from, connectionLimit: 2, supportBigNumbers: true, bigNumberStrings: false }),
      }),
    });
  }
  if (!existsSync(from)) throw new ImportRefusedError(`from: no such SQLite file: ${from}`);
  const database = new Sqlite(from, { readonly: true });
  return new Kysely({ dialect: new SqliteDialect({ database }) });
}

/** The source's tables and their columns, names lower-cased. */
export async function readSourceLayout(source: SourceDb): Promise<Map<string, Set<string>>> {
  const tables = await source.introspection.getTables();
  const layout = new Map<string, Set<string>>();
  for (const table of tables) {
    const name = table.name.toLowerCase();
    // PostgreSQL may list the same name in several schemas: one-api writes to the default one, public.
    if (layout.has(name) && table.schema !== 'public') continue;
    layout.set(name, new Set(table.columns.map((column) => column.name.toLowerCase())));
  }
  return layout;
}

/** All rows of a table, in id order when it has one. */
export async function readRows(source: SourceDb, table: string, hasId: boolean): Promise<SourceRow[]> {
  const query = source.selectFrom(table).selectAll();
  const rows = hasId ? await query.orderBy('id').execute() : await query.execute();
  return rows as SourceRow[];
}

/** Rows of a table with an id, a page at a time in id order (logs can be millions of rows). */
export async function* readPages(
  source: SourceDb,
  table: string,
  pageSize: number,
): AsyncGenerator<SourceRow[]> {
  let after = -1;
  for (;;) {
    const rows = (await source
      .selectFrom(table)
      .selectAll()
      .where('id', '>', after)
      .orderBy('id')
      .limit(pageSize)
      .execute()) as SourceRow[];
    if (rows.length === 0) return;
    yield rows;
    after = Number(rows[rows.length - 1]!.id);
  }
}

export async function countRows(source: SourceDb, table: string): Promise<number> {
  const row = await source
    .selectFrom(table)
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirst();
  return Number((row as { n?: unknown } | undefined)?.n ?? 0);
}
