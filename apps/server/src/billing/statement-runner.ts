import type { CompiledQuery, Kysely, QueryResult, Transaction } from 'kysely';
import { executeInTransaction } from '../db/direct-statements';
import type { Database } from '../db/schema';

/** Runs one compiled statement and answers its result (at once, or a promise: await it either way). */
export type RunStatement = (query: CompiledQuery) => QueryResult<unknown> | Promise<QueryResult<unknown>>;

/**
 * The runner of a transaction's statements: straight on the connection on SQLite, else through Kysely
 * (db/direct-statements.ts). `db` is the database the transaction `trx` was opened on.
 */
export function inTransaction(db: Kysely<Database>, trx: Transaction<Database>): RunStatement {
  return (query) => executeInTransaction(db, trx, query);
}
