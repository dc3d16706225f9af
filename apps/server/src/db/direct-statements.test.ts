import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CompiledQuery, sql } from 'kysely';
import Sqlite from 'libsql';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase, type Db } from './database';
import { sqliteWriteThreadOf, writeTransaction } from './direct-statements';

const opened: Array<{ db: Db; dir: string }> = [];

afterEach(async () => {
  for (const { db, dir } of opened.splice(0)) {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
});

async function openDatabase(sqliteTransactionsInThread = false): Promise<{ db: Db; file: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-direct-'));
  const file = path.join(dir, 'test.db');
  const db = await createDatabase({
    databaseKind: 'sqlite',
    sqlDsn: '',
    sqlitePath: file,
    sqliteTransactionsInThread,
  });
  opened.push({ db, dir });
  await sql`create table notes (id integer primary key, text varchar(64) not null)`.execute(db);
  return { db, file };
}

const insert = (text: string) => CompiledQuery.raw('insert into notes (text) values (?)', [text]);
const count = CompiledQuery.raw('select count(*) as n from notes', []) as CompiledQuery<{ n: number }>;

async function texts(db: Db): Promise<string[]> {
  const { rows } = await sql<{ text: string }>`select text from notes order by id`.execute(db);
  return rows.map((row) => row.text);
}

describe('writeTransaction on SQLite', () => {
  it('runs statements at once on the connection and commits them together', async () => {
    const { db } = await openDatabase();
    const answer = await writeTransaction(db, async (_trx, run) => {
      const result = run(insert('a'));
      expect(result).not.toBeInstanceOf(Promise);
      expect(await result).toMatchObject({ numAffectedRows: 1n, insertId: 1n });
      await run(insert('b'));
      return Number(((await run(count)).rows[0] as { n: number }).n);
    });
    expect(answer).toBe(2);
    expect(await texts(db)).toEqual(['a', 'b']);
  });

  it('rolls everything back when the body throws', async () => {
    const { db } = await openDatabase();
    await expect(
      writeTransaction(db, async (_trx, run) => {
        await run(insert('a'));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await texts(db)).toEqual([]);
    // The connection is free again, and not left inside a transaction.
    await writeTransaction(db, async (_trx, run) => run(insert('after')));
    expect(await texts(db)).toEqual(['after']);
  });

  it('answers the body’s own error when SQLite already ended the transaction', async () => {
    const { db } = await openDatabase();
    await expect(
      writeTransaction(db, async (_trx, run) => {
        await run(insert('a'));
        await run(CompiledQuery.raw('rollback'));
        throw new Error('the body failed');
      }),
    ).rejects.toThrow('the body failed');
    expect(await texts(db)).toEqual([]);
  });

  it('waits its turn for the connection: never inside another transaction', async () => {
    const { db } = await openDatabase();
    let releaseFirst = () => {};
    const first = db.transaction().execute(async (trx) => {
      await sql`insert into notes (text) values ('first')`.execute(trx);
      await new Promise<void>((resolve) => (releaseFirst = resolve));
      throw new Error('first rolls back');
    });
    const second = writeTransaction(db, async (_trx, run) => {
      await run(insert('second'));
      return Number(((await run(count)).rows[0] as { n: number }).n);
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    releaseFirst();
    await expect(first).rejects.toThrow('first rolls back');
    // The second began only after the first's rollback: it saw its own row alone.
    expect(await second).toBe(1);
    expect(await texts(db)).toEqual(['second']);
  });

  it('compiles with the database’s dialect through trx, and refuses to execute through it', async () => {
    const { db } = await openDatabase();
    const query = (handle: Db) => handle.selectFrom('users').select('id').where('id', '=', 7);
    await expect(
      writeTransaction(db, async (trx) => {
        expect(query(trx).compile().sql).toBe(query(db).compile().sql);
        expect(trx.getExecutor().adapter).toBe(db.getExecutor().adapter);
        await query(trx).execute();
      }),
    ).rejects.toThrow(/ran through Kysely; run it with the runner/);
  });

  it('waits with timers while another connection holds the write lock, then writes', async () => {
    const { db, file } = await openDatabase();
    const other = new Sqlite(file);
    other.exec('BEGIN IMMEDIATE');
    other.prepare("insert into notes (text) values ('other')").run();
    let turns = 0;
    const tick = setInterval(() => (turns += 1), 1);
    const ours = writeTransaction(db, async (_trx, run) => run(insert('ours')));
    // The other connection lives on this thread: a loop put to sleep would never let it commit.
    await new Promise((resolve) => setTimeout(resolve, 40));
    other.exec('COMMIT');
    await ours;
    clearInterval(tick);
    expect(turns).toBeGreaterThan(5);
    expect(await texts(db)).toEqual(['other', 'ours']);
    other.close();
  });
});

/** Writes on the main connection until the database's write thread runs (it starts with the 64th write). */
async function startWriteThread(db: Db): Promise<void> {
  const thread = sqliteWriteThreadOf(db);
  for (let write = 0; !thread?.hasThread && write < 200; write += 1) {
    await sql`insert into notes (text) values ('warm-up')`.execute(db);
  }
  expect(thread?.takesTransactions).toBe(true);
  await sql`delete from notes`.execute(db);
}

const isMainInTransaction = (file: string) => {
  // Another connection can begin IMMEDIATE only while nobody holds the write lock.
  const probe = new Sqlite(file);
  try {
    probe.exec('BEGIN IMMEDIATE');
    probe.exec('ROLLBACK');
    return false;
  } catch {
    return true;
  } finally {
    probe.close();
  }
};

describe('writeTransaction on SQLite’s write thread', () => {
  it('runs the statements in the thread: the main connection holds no transaction, read rows come with the commit', async () => {
    const { db, file } = await openDatabase(true);
    await startWriteThread(db);
    const answered = await writeTransaction(db, async (_trx, run) => {
      await run(insert('a'));
      const inserted = await run(
        CompiledQuery.raw("insert into notes (text) values ('b') returning id, text", []),
        1,
      );
      // Nothing has run yet: the body only collects its statements, and the write lock is free.
      expect(isMainInTransaction(file)).toBe(false);
      expect(await texts(db)).toEqual([]);
      return inserted.rows[0];
    });
    expect(answered).toEqual({ id: 2, text: 'b' });
    expect(await texts(db)).toEqual(['a', 'b']);
  });

  it('runs the body again on the main connection when a count is not the one expected, keeping nothing of the first run', async () => {
    const { db } = await openDatabase(true);
    await startWriteThread(db);
    await sql`insert into notes (text) values ('x')`.execute(db);
    const tries: number[] = [];
    const outcome = await writeTransaction(db, async (_trx, run) => {
      await run(insert('first'));
      // Expects to change one row, but none matches: the thread rolls back.
      const changed = await run(
        CompiledQuery.raw("update notes set text = 'y' where text = 'missing'", []),
        1,
      );
      tries.push(Number(changed.numAffectedRows));
      if (Number(changed.numAffectedRows) === 1) return 'usual course';
      await run(insert('other course'));
      return 'other course';
    });
    // First collected for the thread (answered the expected 1), then run for real (0).
    expect(tries).toEqual([1, 0]);
    expect(outcome).toBe('other course');
    expect(await texts(db)).toEqual(['x', 'first', 'other course']);
  });

  it('refuses a result read without an expected count, and keeps nothing', async () => {
    const { db } = await openDatabase(true);
    await startWriteThread(db);
    await expect(
      writeTransaction(db, async (_trx, run) => Number((await run(insert('a'))).numAffectedRows)),
    ).rejects.toThrow(/without an expected count/);
    expect(await texts(db)).toEqual([]);
  });

  it('rolls back a statement that fails and rejects with SQLite’s error', async () => {
    const { db } = await openDatabase(true);
    await startWriteThread(db);
    await expect(
      writeTransaction(db, async (_trx, run) => {
        await run(insert('a'));
        await run(CompiledQuery.raw('insert into notes (id, text) values (1, null)', []));
      }),
    ).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_NOTNULL' });
    expect(await texts(db)).toEqual([]);
    await writeTransaction(db, async (_trx, run) => run(insert('after')));
    expect(await texts(db)).toEqual(['after']);
  });

  it('stays on the main connection when the database was made without transactions in the thread', async () => {
    const { db, file } = await openDatabase(false);
    for (let write = 0; write < 70; write += 1) await sql`insert into notes (text) values ('w')`.execute(db);
    expect(sqliteWriteThreadOf(db)?.hasThread).toBe(true);
    expect(sqliteWriteThreadOf(db)?.takesTransactions).toBe(false);
    await writeTransaction(db, async (_trx, run) => {
      const result = await run(insert('a'));
      // Run at once on the main connection: its result is real, and the write lock is held.
      expect(result.numAffectedRows).toBe(1n);
      expect(isMainInTransaction(file)).toBe(true);
    });
  });

  it('keeps every transaction of many at once, in the order they were handed over', async () => {
    const { db } = await openDatabase(true);
    await startWriteThread(db);
    const written = Array.from({ length: 300 }, (_, index) => `n${index}`);
    await Promise.all(written.map((text) => writeTransaction(db, async (_trx, run) => run(insert(text)))));
    expect(await texts(db)).toEqual(written);
  });
});
