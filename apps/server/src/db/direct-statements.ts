import type { CompiledQuery, Kysely, QueryResult, SqliteDatabase, Transaction } from 'kysely';

/**
 * Statements of a transaction run straight on SQLite's connection.
 *
 * Kysely runs each query through its executor: a new executor object, the transaction's connection provider,
 * a single-connection provider with its own promise chain, and the driver — about six async frames and a
 * dozen objects per statement (the heap profile of the relay at concurrency 1 put ~45 KB of garbage per
 * request there). SQLite's driver is synchronous underneath, and inside a Kysely transaction the transaction
 * holds the one connection exclusively (the driver's mutex), so a compiled statement can run on it directly
 * with the same effect and order: same connection, same transaction, rolled back with it. PostgreSQL and MySQL
 * go through Kysely as before. Only for statements inside a transaction: outside one, another transaction may
 * hold the connection between two of its statements.
 */

const sqliteConnections = new WeakMap<object, SqliteDatabase>();

/** Called once by createDatabase for a SQLite database: the connection its Kysely instance runs on. */
export function rememberSqliteConnection<Schema>(db: Kysely<Schema>, connection: SqliteDatabase): void {
  sqliteConnections.set(db, connection);
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
 * Runs `query` inside `trx` (a transaction of `db`): directly when `db` is SQLite (the result at once), else
 * through Kysely (a promise). Await it either way.
 */
export function executeInTransaction<Schema, Row>(
  db: Kysely<Schema>,
  trx: Transaction<Schema>,
  query: CompiledQuery<Row>,
): QueryResult<Row> | Promise<QueryResult<Row>> {
  const connection = sqliteConnections.get(db);
  return connection ? runOn(connection, query) : trx.executeQuery(query);
}
