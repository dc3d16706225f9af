import { Kysely, SqliteDialect, sql } from 'kysely';
import Sqlite from 'libsql';
import { openSource, type SourceDb, type SourceKind } from '../../src/import/one-api-source';
import { createTableStatements, type Product } from './one-api-tables';

/**
 * one-api and new-api databases as their servers create them: the tables (one-api-tables), for SQLite,
 * PostgreSQL and MySQL, with rows like a running installation has (one-api-seed).
 */
export { createTableStatements, type Product } from './one-api-tables';
export { seedSource, type SeededSource } from './one-api-seed';

/** Creates the tables in `dsn` (an empty PostgreSQL/MySQL database) or a new SQLite file at that path. */
export async function createSourceDatabase(
  product: Product,
  kind: SourceKind,
  where: string,
): Promise<SourceDb> {
  const db: SourceDb =
    kind === 'sqlite'
      ? new Kysely({ dialect: new SqliteDialect({ database: new Sqlite(where) }) })
      : await openSource(where);
  for (const statement of createTableStatements(product, kind)) await sql.raw(statement).execute(db);
  return db;
}
