import {
  CompiledQuery,
  Kysely,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Driver,
  type QueryResult,
  type SqliteDatabase,
} from 'kysely';
import type { SqliteWriteThread, WriteScript } from './sqlite-write-thread';

/**
 * Write transactions of the relay's ledger, run straight on SQLite's connection.
 *
 * Kysely runs a transaction through a transaction builder, a new Kysely instance for the transaction, an
 * executor with a single-connection provider, and each statement through that executor's promise chain: a
 * dozen objects and several async frames per statement and per transaction (the heap profile of the relay at
 * concurrency 1 put ~45 KB of garbage per request in the statements alone). SQLite's driver is synchronous
 * underneath and has one connection, which Kysely lends to one query or transaction at a time (the driver's
 * mutex). Here a transaction borrows that connection through Kysely's own executor (so it waits its turn like
 * any other query), begins, runs its compiled statements on the connection directly, and commits — the same
 * statements in the same order on the same connection. PostgreSQL and MySQL go through Kysely as before.
 *
 * With SQLITE_WRITE_THREAD=on, while SQLite's write thread runs (db/sqlite-write-thread.ts: it starts with
 * writes, ends when they stop), a transaction does not run on the event loop at all. Its body is run first with a runner that only collects the statements and answers each
 * with the count its caller expects (RunStatement's `expected`); the list goes to the thread, which runs it in
 * one transaction and checks every count. When all are as expected — the usual course: balances cover the
 * costs, records are where they were left — the thread commits and the rows the statements read are filled
 * into what the body was answered. When one differs, the thread rolls back and the body runs again here on
 * the main connection, seeing every real result, as it always did.
 */

/**
 * Runs one compiled statement and answers its result (at once, or a promise: await it either way).
 * `expected`: when the caller reads the result, the count it needs for its usual course — rows changed by a
 * write, rows answered by a read. A statement run without it must have its result left unread: in a
 * transaction for the write thread, reading it throws.
 */
export type RunStatement = (
  query: CompiledQuery,
  expected?: number,
) => QueryResult<unknown> | Promise<QueryResult<unknown>>;

interface DirectSqlite {
  connection: SqliteDatabase;
  /** whether the connection is inside a transaction (SQLite ends one by itself after some errors) */
  isInTransaction: () => boolean;
  /** builds and compiles the transaction's statements; executes none */
  compiler: Kysely<unknown>;
  writeThread: SqliteWriteThread | null;
}

const sqliteConnections = new WeakMap<object, DirectSqlite>();

/** SQLite's write transactions take the write lock at once (db/database.ts says why). */
export const BEGIN_IMMEDIATE = CompiledQuery.raw('begin immediate');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');

/** Called once by createDatabase for a SQLite database: the connection its Kysely instance runs on. */
export function rememberSqliteConnection<Schema>(
  db: Kysely<Schema>,
  connection: SqliteDatabase,
  isInTransaction: () => boolean,
  writeThread: SqliteWriteThread | null = null,
): void {
  sqliteConnections.set(db, { connection, isInTransaction, compiler: compileOnly(db), writeThread });
}

/** The write thread of a SQLite database made by createDatabase; null for other databases and in memory. */
export function sqliteWriteThreadOf<Schema>(db: Kysely<Schema>): SqliteWriteThread | null {
  return sqliteConnections.get(db)?.writeThread ?? null;
}

/** Kysely's driver answers changes as bigints; so does this, so callers read both alike. */
function runOn<Row>(connection: SqliteDatabase, query: CompiledQuery<Row>): QueryResult<Row> {
  const statement = connection.prepare(query.sql);
  if (statement.reader) return { rows: statement.all(query.parameters) as Row[] };
  const { changes, lastInsertRowid } = statement.run(query.parameters);
  return {
    rows: [],
    numAffectedRows: changes === undefined || changes === null ? undefined : BigInt(changes),
    insertId: lastInsertRowid === undefined || lastInsertRowid === null ? undefined : BigInt(lastInsertRowid),
  };
}

/**
 * Runs `body` in a write transaction of `db` and answers what it answers; a throw rolls everything back.
 * `body` builds its statements with `trx` and runs them with `run` — never with `trx` itself: on SQLite `trx`
 * only compiles (executing through it throws, as the transaction holds the one connection), and `run`
 * answers at once. On SQLite the transaction begins IMMEDIATE, holding the write lock from the start.
 */
export function writeTransaction<Schema, Result>(
  db: Kysely<Schema>,
  body: TransactionBody<Schema, Result>,
): Promise<Result> {
  const sqlite = sqliteConnections.get(db);
  if (!sqlite) {
    return db.transaction().execute((trx) => body(trx, (query) => trx.executeQuery(query)));
  }
  if (sqlite.writeThread?.takesTransactions) return inWriteThread(db, sqlite, sqlite.writeThread, body);
  return onMainConnection(db, sqlite, body);
}

type TransactionBody<Schema, Result> = (trx: Kysely<Schema>, run: RunStatement) => Promise<Result>;

const UNREAD_MESSAGE =
  'a statement of a transaction for the SQLite write thread had its result read without an expected count';

/** What a statement run without an expected count answers in a transaction for the write thread. */
const UNREAD: QueryResult<unknown> = Object.freeze({
  get rows(): never {
    throw new Error(UNREAD_MESSAGE);
  },
  get numAffectedRows(): never {
    throw new Error(UNREAD_MESSAGE);
  },
});

/** The transaction's statements, collected by running its body, run and committed by the write thread. */
async function inWriteThread<Schema, Result>(
  db: Kysely<Schema>,
  sqlite: DirectSqlite,
  thread: SqliteWriteThread,
  body: TransactionBody<Schema, Result>,
): Promise<Result> {
  const script: WriteScript = [];
  /** for each reading statement, the rows its caller was answered, filled in once committed */
  const readRows: Array<Array<Record<string, unknown>>> = [];
  const run: RunStatement = (query, expected) => {
    script.push(query.sql, query.parameters, expected ?? null);
    // The main connection's cached statement says whether it reads (a SELECT, a write with RETURNING).
    if (sqlite.connection.prepare(query.sql).reader) {
      const rows = Array.from({ length: expected ?? 0 }, () => ({}));
      readRows.push(rows);
      return expected === undefined ? UNREAD : { rows };
    }
    return expected === undefined ? UNREAD : { rows: [], numAffectedRows: BigInt(expected) };
  };
  const result = await body(sqlite.compiler as Kysely<Schema>, run);
  const outcome = await thread.runScript(script);
  if (outcome !== null && 'answers' in outcome) {
    for (let statement = 0; statement < readRows.length; statement += 1) {
      const answered = outcome.answers[statement];
      const rows = readRows[statement];
      for (let row = 0; row < rows.length; row += 1) Object.assign(rows[row], answered[row]);
    }
    return result;
  }
  if (outcome !== null && 'error' in outcome) {
    throw Object.assign(new Error(outcome.error.message), { code: outcome.error.code });
  }
  // A count other than expected (nothing was kept), or no thread to take it: the body runs again here.
  return onMainConnection(db, sqlite, body);
}

/** The transaction on the main connection, its statements run at once. */
function onMainConnection<Schema, Result>(
  db: Kysely<Schema>,
  sqlite: DirectSqlite,
  body: TransactionBody<Schema, Result>,
): Promise<Result> {
  const run: RunStatement = (query) => runOn(sqlite.connection, query);
  return db.getExecutor().provideConnection(async (connection) => {
    await connection.executeQuery(BEGIN_IMMEDIATE);
    try {
      const result = await body(sqlite.compiler as Kysely<Schema>, run);
      await connection.executeQuery(COMMIT);
      return result;
    } catch (error) {
      if (sqlite.isInTransaction()) await connection.executeQuery(ROLLBACK);
      throw error;
    }
  });
}

/** A transaction's statement executed through its compiling instance instead of its runner. */
class CompileOnlyDriver implements Driver {
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    throw new Error('a statement of a direct SQLite transaction ran through Kysely; run it with the runner');
  }
  async beginTransaction(): Promise<void> {}
  async commitTransaction(): Promise<void> {}
  async rollbackTransaction(): Promise<void> {}
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {}
}

/**
 * A Kysely instance that compiles exactly as `db` does (its adapter, SQLite's compiler) and executes nothing.
 * Sharing the adapter keeps caches keyed by it (PrecompiledRows) shared with `db`.
 */
function compileOnly<Schema>(db: Kysely<Schema>): Kysely<unknown> {
  const adapter = db.getExecutor().adapter;
  return new Kysely<unknown>({
    dialect: {
      createAdapter: () => adapter,
      createDriver: () => new CompileOnlyDriver(),
      createIntrospector: (instance): DatabaseIntrospector => new SqliteIntrospector(instance),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });
}
