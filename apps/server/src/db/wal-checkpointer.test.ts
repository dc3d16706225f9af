import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import Sqlite from 'libsql';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase, type Db } from './database';
import { WalCheckpointer } from './wal-checkpointer';

const dirs: string[] = [];
const dbs: Db[] = [];

afterEach(async () => {
  for (const db of dbs.splice(0)) await db.destroy();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempFile(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-wal-'));
  dirs.push(dir);
  return path.join(dir, 'gatehouse.db');
}

async function openDb(file: string): Promise<Db> {
  const db = await createDatabase({ databaseKind: 'sqlite', sqlDsn: '', sqlitePath: file });
  dbs.push(db);
  return db;
}

/** Frames in the WAL and how many of them are in the database file, read on a connection of its own. */
function walState(file: string): { frames: number; checkpointed: number } {
  const reader = new Sqlite(file);
  try {
    // A PASSIVE checkpoint of nothing new answers the WAL's state without changing it much: compare counts.
    const row = reader.prepare('PRAGMA wal_checkpoint(PASSIVE)').get() as { log: number; checkpointed: number };
    return { frames: row.log, checkpointed: row.checkpointed };
  } finally {
    reader.close();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function fill(db: Db, rows: number): Promise<void> {
  await sql`CREATE TABLE IF NOT EXISTS filler (id INTEGER PRIMARY KEY, body TEXT)`.execute(db);
  for (let index = 0; index < rows; index += 1) {
    await sql`INSERT INTO filler (body) VALUES (${'x'.repeat(2000)})`.execute(db);
  }
}

describe('WAL checkpoints in a thread of their own', () => {
  it('leaves checkpoints off the main connection', async () => {
    const db = await openDb(tempFile());
    const { rows } = await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(db);
    expect(rows[0].wal_autocheckpoint).toBe(0);
  });

  it('folds the WAL into the database file shortly after writes, and the main thread never did', async () => {
    const file = tempFile();
    const db = await openDb(file);
    const sizeBefore = statSync(file).size;
    await fill(db, 300);
    // Everything written is in the WAL, not yet in the file (the main connection does not checkpoint) …
    expect(statSync(file).size).toBe(sizeBefore);
    await sleep(1_000);
    // … and a moment later the thread has copied it there.
    expect(statSync(file).size).toBeGreaterThan(sizeBefore + 300 * 2000);
    const state = walState(file);
    expect(state.checkpointed).toBe(state.frames);
  });

  it('stops with the database, everything written still there', async () => {
    const file = tempFile();
    const db = await openDb(file);
    await fill(db, 20);
    await sleep(600);
    dbs.pop();
    await db.destroy();
    const reopened = new Sqlite(file);
    expect(reopened.prepare('SELECT count(*) AS n FROM filler').get()).toMatchObject({ n: 20 });
    reopened.close();
  });

  it('checkpoints on the main connection again when its thread cannot work', async () => {
    const file = tempFile();
    const main = new Sqlite(file);
    main.exec('PRAGMA journal_mode = WAL');
    const warnings: string[] = [];
    // A path the thread cannot open: its connection fails, the thread ends with an error.
    const checkpointer = new WalCheckpointer(path.join(path.dirname(file), 'missing', 'x.db'), main, (message) =>
      warnings.push(message),
    );
    expect(main.prepare('PRAGMA wal_autocheckpoint').get()).toMatchObject({ wal_autocheckpoint: 0 });
    checkpointer.written();
    for (let waited = 0; warnings.length === 0 && waited < 5_000; waited += 100) await sleep(100);
    expect(warnings[0]).toMatch(/checkpoints run on the main connection again/);
    expect(main.prepare('PRAGMA wal_autocheckpoint').get()).toMatchObject({ wal_autocheckpoint: 1000 });
    checkpointer.stop();
    main.close();
  });
});
