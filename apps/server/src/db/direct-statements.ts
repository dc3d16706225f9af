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
 */

/** Runs one compiled statement and answers its result (at once, or a promise: await it either way). */
export type RunStatement = (query: CompiledQuery) => QueryResult<unknown> | Promise<QueryResult<unknown>>;

interface DirectSqlite {
  connection: SqliteDatabase;
  /** whether the connection is inside a transaction (SQLite ends one by itself after some errors) */
  isInTransaction: () => boolean;
  /** builds and compiles the transaction's statements; executes none */
  compiler: Kysely<unknown>;
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
): void {
  sqliteConnections.set(db, { connection, isInTransaction, compiler: compileOnly(db) });
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
  body: (trx: Kysely<Schema>, run: RunStatement) => Promise<Result>,
): Promise<Result> {
  const sqlite = sqliteConnections.get(db);
  if (!sqlite) {
    return db.transaction().execute((trx) => body(trx, (query) => trx.executeQuery(query)));
  }
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
