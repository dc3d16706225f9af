import { sql } from 'kysely';
import type { Db } from '../../src/db/database';
import { sqliteWriteThreadOf } from '../../src/db/direct-statements';

/**
 * Writes on the main connection until the SQLite database's write thread runs (it starts with the 64th write,
 * as under load), in a table of its own that is dropped again: from then on the relay's transactions run in the
 * thread. The database must have been made with sqliteTransactionsInThread (SQLITE_WRITE_THREAD=on).
 */
export async function startSqliteWriteThread(db: Db): Promise<void> {
  const thread = sqliteWriteThreadOf(db);
  if (thread === null) throw new Error('not a SQLite database with a write thread');
  await sql`create table write_thread_warm_up (id integer primary key)`.execute(db);
  for (let write = 0; !thread.hasThread && write < 200; write += 1) {
    await sql`insert into write_thread_warm_up (id) values (${write})`.execute(db);
  }
  await sql`drop table write_thread_warm_up`.execute(db);
  if (!thread.takesTransactions) throw new Error('the write thread did not start, or takes no transactions');
}
