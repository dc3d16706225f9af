/**
 * Bulk loading of generated log rows for `npm run seed:logs`, straight through each database's own driver:
 * Kysely building a 1,500-row insert cost more than the database storing it (~2,700 rows/s). Every row gets every
 * column (defaults written out), so one statement shape serves the whole load:
 *
 * - SQLite: one prepared multi-row INSERT (500 rows) run again and again, 100,000 rows per transaction, with a large
 *   page cache and no fsync for the load only (the server's own connection settings are untouched);
 * - PostgreSQL: `INSERT … SELECT * FROM unnest($1::int[], …)`: one array parameter per column, 10,000 rows a
 *   statement, 100,000 a transaction;
 * - MySQL: mysql2's nested-array `VALUES ?`, 2,000 rows a statement.
 *
 * Indexes stay as the migrations made them: the load pays for them as the product would.
 */
import { performance } from 'node:perf_hooks';
import type { NewLogRow } from '../apps/server/src/db/schema';

/** Column, PostgreSQL array type for unnest, default for rows that do not set it. */
const COLUMNS: Array<[keyof NewLogRow, string, number | string]> = [
  ['user_id', 'int4', 0],
  ['username', 'text', ''],
  ['type', 'int4', 0],
  ['created_at', 'int8', 0],
  ['content', 'text', ''],
  ['quota', 'int8', 0],
  ['token_name', 'text', ''],
  ['model_name', 'text', ''],
  ['channel_id', 'int4', 0],
  ['prompt_tokens', 'int4', 0],
  ['completion_tokens', 'int4', 0],
  ['cache_read_tokens', 'int4', 0],
  ['reasoning_tokens', 'int4', 0],
  ['elapsed_time', 'int4', 0],
  ['first_token_ms', 'int4', 0],
  ['is_stream', 'int4', 0],
  ['request_id', 'text', ''],
  ['inbound_protocol', 'text', ''],
  ['model_ratio', 'float8', 0],
  ['completion_ratio', 'float8', 0],
  ['group_ratio', 'float8', 0],
];
const NAMES = COLUMNS.map(([name]) => name).join(', ');

export type RowSource = (index: number) => NewLogRow;

/** Writes `rows` rows made by `make` (called with 0, 1, 2, … in order) and prints the rate as it goes. */
export async function bulkLoad(dsn: string, rows: number, make: RowSource): Promise<number> {
  const began = performance.now();
  let lastReport = 0;
  const progress = (written: number) => {
    if (written - lastReport < 250_000 && written < rows) return;
    lastReport = written;
    const seconds = (performance.now() - began) / 1000;
    process.stdout.write(
      `\r${written.toLocaleString('en')} rows, ${Math.round(written / seconds).toLocaleString('en')} rows/s   `,
    );
  };
  if (dsn.startsWith('postgres')) await loadPostgres(dsn, rows, make, progress);
  else if (dsn.startsWith('mysql')) await loadMysql(dsn, rows, make, progress);
  else await loadSqlite(dsn.slice('sqlite:'.length), rows, make, progress);
  return (performance.now() - began) / 1000;
}

const cells = (row: NewLogRow) =>
  COLUMNS.map(([name, , fallback]) => (row[name] ?? fallback) as number | string);

async function loadSqlite(file: string, rows: number, make: RowSource, progress: (n: number) => void) {
  const { default: Sqlite } = await import('libsql');
  const database = new Sqlite(file);
  database.exec('PRAGMA busy_timeout = 5000');
  database.exec('PRAGMA synchronous = OFF');
  database.exec('PRAGMA cache_size = -1000000');
  const perStatement = 500;
  const tuple = `(${COLUMNS.map(() => '?').join(', ')})`;
  const statementFor = (count: number) =>
    database.prepare(`INSERT INTO logs (${NAMES}) VALUES ${Array(count).fill(tuple).join(', ')}`);
  const full = statementFor(perStatement);
  let written = 0;
  while (written < rows) {
    database.exec('BEGIN');
    const end = Math.min(rows, written + 100_000);
    while (written < end) {
      const count = Math.min(perStatement, end - written);
      const values: Array<number | string> = [];
      for (let offset = 0; offset < count; offset += 1) values.push(...cells(make(written + offset)));
      (count === perStatement ? full : statementFor(count)).run(values);
      written += count;
    }
    database.exec('COMMIT');
    progress(written);
  }
  database.close();
}

async function loadPostgres(dsn: string, rows: number, make: RowSource, progress: (n: number) => void) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: dsn });
  await client.connect();
  // This session only: a commit does not wait for its WAL flush (a crash may lose the last seeded batches).
  await client.query('SET synchronous_commit = off');
  const arrays = COLUMNS.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ');
  const text = `INSERT INTO logs (${NAMES}) SELECT * FROM unnest(${arrays})`;
  const perStatement = 10_000;
  let written = 0;
  try {
    while (written < rows) {
      await client.query('BEGIN');
      const end = Math.min(rows, written + 100_000);
      while (written < end) {
        const count = Math.min(perStatement, end - written);
        const columns = COLUMNS.map((): Array<number | string> => []);
        for (let offset = 0; offset < count; offset += 1) {
          const row = cells(make(written + offset));
          for (let column = 0; column < row.length; column += 1) columns[column]!.push(row[column]!);
        }
        await client.query(text, columns);
        written += count;
      }
      await client.query('COMMIT');
      progress(written);
    }
  } finally {
    await client.end();
  }
}

async function loadMysql(dsn: string, rows: number, make: RowSource, progress: (n: number) => void) {
  const { createConnection } = await import('mysql2/promise');
  const connection = await createConnection({ uri: dsn });
  const perStatement = 2_000;
  let written = 0;
  try {
    while (written < rows) {
      await connection.query('START TRANSACTION');
      const end = Math.min(rows, written + 100_000);
      while (written < end) {
        const count = Math.min(perStatement, end - written);
        const values = Array.from({ length: count }, (_, offset) => cells(make(written + offset)));
        await connection.query(`INSERT INTO logs (${NAMES}) VALUES ?`, [values]);
        written += count;
      }
      await connection.query('COMMIT');
      progress(written);
    }
  } finally {
    await connection.end();
  }
}
