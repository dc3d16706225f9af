import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  Kysely,
  MysqlDialect,
  PostgresDialect,
  SqliteDialect,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
  type SqliteDatabase,
  type SqliteDialectConfig,
  type SqliteStatement,
} from 'kysely';
import Sqlite from 'libsql';
import type { Config } from '../config/config';
import { BEGIN_IMMEDIATE, rememberSqliteConnection } from './direct-statements';
import type { Database } from './schema';
import { SqliteWriteThread } from './sqlite-write-thread';

export type Db = Kysely<Database>;

async function createSqliteDialect(
  sqlitePath: string,
  transactionsInThread: boolean,
): Promise<{
  dialect: Dialect;
  connection: SqliteDatabase;
  isInTransaction: () => boolean;
  writeThread: SqliteWriteThread | null;
}> {
  if (sqlitePath !== ':memory:') mkdirSync(path.dirname(sqlitePath), { recursive: true });
  const database = new Sqlite(sqlitePath);
  database.exec('PRAGMA journal_mode = WAL');
  // No busy handler (it would sleep on the event loop): the driver waits for the lock itself.
  database.exec('PRAGMA busy_timeout = 0');
  database.exec('PRAGMA synchronous = NORMAL');
  const writeThread =
    sqlitePath === ':memory:'
      ? null
      : new SqliteWriteThread(sqlitePath, database, { runsTransactions: transactionsInThread });
  const connection = withStatementCache(database, writeThread);
  return {
    dialect: new PatientSqliteDialect({ database: connection }, writeThread),
    connection,
    isInTransaction: () => database.inTransaction,
    writeThread,
  };
}

/** How long a statement that found the database locked (another process writing) tries again. */
const BUSY_GIVE_UP_MS = 5_000;
const BUSY_RETRY_MS = 1;

/**
 * Kysely's SQLite dialect, made to wait for SQLite's write lock without putting the event loop to sleep.
 *
 * SQLite's own way, a busy handler, sleeps in the calling thread (1, 2, 5 ms …) until the lock is free; on the
 * main thread that stops every request for as long as the write thread holds the lock (a relay transaction,
 * the WAL's restart) or another process writes. Here the connection has no busy handler and the driver does
 * the waiting with timers:
 * - once it holds the connection (Kysely's mutex: one query or transaction at a time), it waits while the
 *   write thread restarts the WAL (SqliteWriteThread.whenWritable);
 * - transactions begin IMMEDIATE, taking the write lock at once, so no statement inside one can find the lock
 *   taken (a deferred transaction could, halfway through);
 * - a statement or BEGIN that finds the lock taken (SQLITE_BUSY: it did nothing) is run again a millisecond
 *   later, for up to BUSY_GIVE_UP_MS, then fails as before.
 */
class PatientSqliteDialect extends SqliteDialect {
  constructor(
    config: SqliteDialectConfig,
    private readonly writeThread: SqliteWriteThread | null,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const writeThread = this.writeThread;
    const acquire = driver.acquireConnection.bind(driver);
    let patient: DatabaseConnection | null = null;
    driver.acquireConnection = async () => {
      const connection = await acquire();
      const wait = writeThread?.whenWritable() ?? null;
      if (wait !== null) await wait;
      patient ??= patientConnection(connection);
      return patient;
    };
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(BEGIN_IMMEDIATE);
    };
    return driver;
  }
}

function isBusy(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'SQLITE_BUSY';
}

/** The connection, running a statement again later while it finds the database locked. */
function patientConnection(connection: DatabaseConnection): DatabaseConnection {
  const retry = async <Row>(query: CompiledQuery, firstError: unknown): Promise<QueryResult<Row>> => {
    const giveUpAt = Date.now() + BUSY_GIVE_UP_MS;
    let error = firstError;
    while (Date.now() < giveUpAt) {
      await sleep(BUSY_RETRY_MS);
      try {
        return await connection.executeQuery<Row>(query);
      } catch (next) {
        if (!isBusy(next)) throw next;
        error = next;
      }
    }
    throw error;
  };
  return {
    executeQuery: <Row>(query: CompiledQuery) => {
      try {
        // Kysely's SQLite connection runs the statement at once and throws synchronously when it fails.
        return connection.executeQuery<Row>(query);
      } catch (error) {
        if (!isBusy(error)) throw error;
        return retry<Row>(query, error);
      }
    },
    streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
  };
}

const STATEMENT_CACHE_LIMIT = 1000;

/**
 * Kysely prepares every query anew; the relay runs the same few statements on every request, and preparing
 * was 8–11% of its CPU (bench/README.md). Statements are reused per SQL text. Safe because Kysely's SQLite
 * driver runs one query at a time on its single connection, and SQLite re-prepares after schema changes.
 * Whether a statement reads is kept with it (libsql asks the native side on every look), and a statement that
 * writes tells the checkpointer.
 */
function withStatementCache(
  database: Sqlite.Database,
  checkpointer: SqliteWriteThread | null,
): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  const writes = { isPending: false, tell: () => checkpointer?.written() };
  return {
    close: () => {
      checkpointer?.stop();
      database.close();
    },
    prepare(sqlText: string): SqliteStatement {
      let statement = statements.get(sqlText);
      if (!statement) {
        if (statements.size >= STATEMENT_CACHE_LIMIT) statements.clear();
        statement = keptStatement(database.prepare(sqlText), sqlText, writes);
        statements.set(sqlText, statement);
      }
      return statement;
    },
  };
}

interface WriteTracker {
  /** a statement changed rows since the last commit told the checkpointer */
  isPending: boolean;
  tell: () => void;
}

/**
 * A statement that changed rows tells the checkpointer, and so does the COMMIT after it (the checkpoint may
 * have run while the transaction was still open); a write with RETURNING runs as a reader and tells it when
 * it answered rows. Statements that change nothing (an UPDATE matching no row, the periodic jobs' idle rounds)
 * do not, so an idle server lets the write thread end.
 */
function keptStatement(statement: Sqlite.Statement, sqlText: string, writes: WriteTracker): SqliteStatement {
  const isCommit = /^\s*commit\b/i.test(sqlText);
  const isReturningWrite = statement.reader && /^\s*(insert|update|delete|replace)\b/i.test(sqlText);
  return {
    reader: statement.reader,
    all: (parameters) => {
      const rows = statement.all(parameters) as unknown[];
      if (isReturningWrite && rows.length > 0) {
        writes.isPending = true;
        writes.tell();
      }
      return rows;
    },
    iterate: (parameters) => statement.iterate(parameters) as IterableIterator<unknown>,
    run: (parameters) => {
      const result = statement.run(parameters);
      if (isCommit) {
        if (writes.isPending) {
          writes.isPending = false;
          writes.tell();
        }
      } else if (Number(result.changes) > 0) {
        writes.isPending = true;
        writes.tell();
      }
      return result;
    },
  };
}

async function createPostgresDialect(dsn: string): Promise<Dialect> {
  const { default: pg } = await import('pg');
  // bigint columns hold quotas and timestamps, far below 2^53: read them as numbers, not strings.
  pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
  const pool = new pg.Pool({ connectionString: dsn, max: 10 });
  // A connection that the server drops (PostgreSQL restarted, a failover) emits 'error' on the pool when idle;
  // unheard, that would end the process. The pool opens a new connection for the next query instead, and
  // queries made while the database is away fail on their own (the ledger retries its settlements).
  const onLost = (error: Error) => console.error(`PostgreSQL connection lost: ${error.message}`);
  pool.on('error', onLost);
  // The same for a connection lost while checked out between two queries (inside a transaction): its next
  // query fails, which rolls the transaction back.
  pool.on('connect', (client) => client.on('error', onLost));
  return new PostgresDialect({ pool });
}

async function createMysqlDialect(dsn: string): Promise<Dialect> {
  const { createPool } = await import('mysql2');
  return new MysqlDialect({
    pool: createPool({ uri: dsn, connectionLimit: 10, supportBigNumbers: true, bigNumberStrings: false }),
  });
}

/** `sqliteTransactionsInThread` (Config, SQLITE_WRITE_THREAD) is off unless given. */
export async function createDatabase(
  config: Pick<Config, 'databaseKind' | 'sqlDsn' | 'sqlitePath'> &
    Partial<Pick<Config, 'sqliteTransactionsInThread'>>,
): Promise<Db> {
  if (config.databaseKind === 'postgres') {
    return new Kysely<Database>({ dialect: await createPostgresDialect(config.sqlDsn) });
  }
  if (config.databaseKind === 'mysql') {
    return new Kysely<Database>({ dialect: await createMysqlDialect(config.sqlDsn) });
  }
  const { dialect, connection, isInTransaction, writeThread } = await createSqliteDialect(
    config.sqlitePath,
    config.sqliteTransactionsInThread ?? false,
  );
  const db = new Kysely<Database>({ dialect });
  rememberSqliteConnection(db, connection, isInTransaction, writeThread);
  return db;
}
