import { randomBytes } from 'node:crypto';

/** Where a bench gateway keeps its data: its own SQLite file (the default), or a fresh database on a server. */
export interface BenchDatabase {
  /** the gateway's SQL_DSN (empty: SQLite) */
  dsn: string;
  drop(): Promise<void>;
}

/** A database URL with another database name (the path). */
function withDatabase(serverDsn: string, name: string): string {
  const url = new URL(serverDsn);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * `BENCH_SQL_DSN` (a postgres://… or mysql://… address of a server the harness may create databases on):
 * each gateway gets a database of its own, made empty before it starts and dropped after, so every run
 * starts as `npm start` does on a new install. Unset: SQLite, as by default.
 */
export async function createBenchDatabase(
  serverDsn = process.env.BENCH_SQL_DSN ?? '',
): Promise<BenchDatabase> {
  if (serverDsn === '') return { dsn: '', drop: async () => {} };
  const name = `gatehouse_bench_${randomBytes(4).toString('hex')}`;
  if (serverDsn.startsWith('postgres')) {
    const { default: pg } = await import('pg');
    const admin = async (sql: string) => {
      const client = new pg.Client({ connectionString: serverDsn });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    };
    await admin(`CREATE DATABASE ${name}`);
    return {
      dsn: withDatabase(serverDsn, name),
      drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    };
  }
  if (serverDsn.startsWith('mysql')) {
    const mysql = await import('mysql2/promise');
    const admin = async (sql: string) => {
      const connection = await mysql.createConnection(serverDsn);
      try {
        await connection.query(sql);
      } finally {
        await connection.end();
      }
    };
    await admin(`CREATE DATABASE ${name}`);
    return { dsn: withDatabase(serverDsn, name), drop: () => admin(`DROP DATABASE IF EXISTS ${name}`) };
  }
  throw new Error('BENCH_SQL_DSN must be a postgres://… or mysql://… address');
}
