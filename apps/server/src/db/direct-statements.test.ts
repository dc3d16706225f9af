import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CompiledQuery, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase, type Db } from './database';
import { executeInTransaction } from './direct-statements';

const opened: Array<{ db: Db; dir: string }> = [];

afterEach(async () => {
  for (const { db, dir } of opened.splice(0)) {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
});

async function openDatabase(): Promise<Db> {
  const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-direct-'));
  const db = await createDatabase({
    databaseKind: 'sqlite',
    sqlDsn: '',
    sqlitePath: path.join(dir, 'test.db'),
  });
  opened.push({ db, dir });
  await sql`create table notes (id integer primary key, text varchar(64) not null)`.execute(db);
  return db;
}

const insert = (text: string) => CompiledQuery.raw('insert into notes (text) values (?)', [text]);
const count = CompiledQuery.raw('select count(*) as n from notes', []) as CompiledQuery<{ n: number }>;

async function countNotes(db: Db): Promise<number> {
  return Number((await db.executeQuery(count)).rows[0].n);
}

describe('executeInTransaction on SQLite', () => {
  it('runs at once, inside the transaction: its writes are seen by Kysely and committed with it', async () => {
    const db = await openDatabase();
    await db.transaction().execute(async (trx) => {
      const result = executeInTransaction(db, trx, insert('a'));
      expect(result).not.toBeInstanceOf(Promise);
      expect(await result).toMatchObject({ numAffectedRows: 1n, insertId: 1n });
      const seen = await trx
        .selectFrom('notes' as never)
        .selectAll()
        .execute();
      expect(seen).toHaveLength(1);
      expect((await executeInTransaction(db, trx, count)).rows).toEqual([{ n: 1 }]);
    });
    expect(await countNotes(db)).toBe(1);
  });

  it('is rolled back with the transaction', async () => {
    const db = await openDatabase();
    await expect(
      db.transaction().execute(async (trx) => {
        await executeInTransaction(db, trx, insert('a'));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await countNotes(db)).toBe(0);
  });

  it('never runs inside another transaction: the connection stays the holder’s until it commits', async () => {
    const db = await openDatabase();
    let releaseFirst = () => {};
    const first = db.transaction().execute(async (trx) => {
      await executeInTransaction(db, trx, insert('first'));
      await new Promise<void>((resolve) => (releaseFirst = resolve));
      throw new Error('first rolls back');
    });
    const second = db.transaction().execute(async (trx) => {
      await executeInTransaction(db, trx, insert('second'));
      return (await executeInTransaction(db, trx, count)).rows[0].n;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    releaseFirst();
    await expect(first).rejects.toThrow('first rolls back');
    // The second began only after the first's rollback: it saw its own row alone.
    expect(Number(await second)).toBe(1);
    expect(await countNotes(db)).toBe(1);
  });
});
