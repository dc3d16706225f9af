import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import Sqlite from 'libsql';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase, type Db } from './database';

const dirs: string[] = [];
const dbs: Db[] = [];

afterEach(async () => {
  for (const db of dbs.splice(0)) await db.destroy();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A server database and a second connection to the same file (another process, in effect). */
async function openBoth(): Promise<{ db: Db; other: Sqlite.Database }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-db-'));
  dirs.push(dir);
  const file = path.join(dir, 'gatehouse.db');
  const db = await createDatabase({ databaseKind: 'sqlite', sqlDsn: '', sqlitePath: file });
  dbs.push(db);
  await sql`CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT)`.execute(db);
  const other = new Sqlite(file);
  return { db, other };
}

/** Counts event-loop turns until stopped: a loop put to sleep by SQLite's busy handler would count none. */
function countTurns(): { stop: () => number } {
  let turns = 0;
  let isRunning = true;
  const turn = () => {
    turns += 1;
    if (isRunning) setImmediate(turn);
  };
  setImmediate(turn);
  return {
    stop: () => {
      isRunning = false;
      return turns;
    },
  };
}

describe('SQLite: waiting for the write lock', () => {
  it('waits for another writer with timers, not by sleeping on the event loop, then writes', async () => {
    const { db, other } = await openBoth();
    other.exec('BEGIN IMMEDIATE');
    other.prepare("INSERT INTO items (name) VALUES ('other')").run();
    const turns = countTurns();
    const insert = sql`INSERT INTO items (name) VALUES ('ours')`.execute(db);
    // The other connection lives on this thread: a busy handler sleeping here would never let it commit.
    await new Promise((resolve) => setTimeout(resolve, 50));
    other.exec('COMMIT');
    await insert;
    expect(turns.stop()).toBeGreaterThan(5);
    const { rows } = await sql<{ name: string }>`SELECT name FROM items ORDER BY id`.execute(db);
    expect(rows.map((row) => row.name)).toEqual(['other', 'ours']);
    other.close();
  });

  it('begins transactions immediately: one waits whole for the lock, never halfway through', async () => {
    const { db, other } = await openBoth();
    await sql`INSERT INTO items (name) VALUES ('first')`.execute(db);
    other.exec('BEGIN IMMEDIATE');
    other.prepare("UPDATE items SET name = 'other' WHERE id = 1").run();
    const transaction = db.transaction().execute(async (trx) => {
      // A deferred transaction would read the old snapshot here, then fail to write.
      const { rows } = await sql<{ name: string }>`SELECT name FROM items WHERE id = 1`.execute(trx);
      await sql`UPDATE items SET name = ${`${rows[0].name}+ours`} WHERE id = 1`.execute(trx);
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    other.exec('COMMIT');
    await transaction;
    const { rows } = await sql<{ name: string }>`SELECT name FROM items WHERE id = 1`.execute(db);
    expect(rows[0].name).toBe('other+ours');
    other.close();
  });

  it('reads while another connection writes', async () => {
    const { db, other } = await openBoth();
    await sql`INSERT INTO items (name) VALUES ('committed')`.execute(db);
    other.exec('BEGIN IMMEDIATE');
    other.prepare("INSERT INTO items (name) VALUES ('pending')").run();
    const { rows } = await sql<{ name: string }>`SELECT name FROM items`.execute(db);
    expect(rows.map((row) => row.name)).toEqual(['committed']);
    other.exec('ROLLBACK');
    other.close();
  });
});
