import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import Sqlite from 'libsql';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase, type Db } from './database';
import { SqliteWriteThread, WriteThreadLost, type ScriptOutcome } from './sqlite-write-thread';

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

/** A WAL database with a filler table, its checkpointer, and a write that tells it (2 KB a row). */
function withCheckpointer(timing: { idleExitMs: number; trickleMs: number }) {
  const file = tempFile();
  const main = new Sqlite(file);
  main.exec('PRAGMA journal_mode = WAL');
  main.exec('CREATE TABLE filler (id INTEGER PRIMARY KEY, body TEXT)');
  const checkpointer = new SqliteWriteThread(file, main, { warn: () => {}, timing });
  const write = () => {
    main.prepare('INSERT INTO filler (body) VALUES (?)').run('x'.repeat(2000));
    checkpointer.written();
  };
  return { file, main, checkpointer, write };
}

/** The WAL header's checkpoint sequence number: SQLite adds one each time the WAL starts over. */
function walStarts(walFile: string): number {
  const header = Buffer.alloc(16);
  const fd = openSync(walFile, 'r');
  readSync(fd, header, 0, 16, 0);
  closeSync(fd);
  return header.readUInt32BE(12);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function fill(db: Db, rows: number): Promise<void> {
  await sql`CREATE TABLE IF NOT EXISTS filler (id INTEGER PRIMARY KEY, body TEXT)`.execute(db);
  for (let index = 0; index < rows; index += 1) {
    await sql`INSERT INTO filler (body) VALUES (${'x'.repeat(2000)})`.execute(db);
  }
}

describe('WAL checkpoints in the write thread', () => {
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

  it('ends its thread when writes stop, and starts another when writes come in numbers', async () => {
    const { file, main, checkpointer, write } = withCheckpointer({ idleExitMs: 500, trickleMs: 60_000 });
    for (let index = 0; index < 100; index += 1) write();
    expect(checkpointer.hasThread).toBe(true);
    for (let waited = 0; checkpointer.hasThread && waited < 5_000; waited += 100) await sleep(100);
    expect(checkpointer.hasThread).toBe(false);
    // Only a checkpoint makes the database file itself grow.
    const sizeBefore = statSync(file).size;
    for (let index = 0; index < 100; index += 1) write();
    expect(checkpointer.hasThread).toBe(true);
    await sleep(700);
    expect(statSync(file).size).toBeGreaterThan(sizeBefore + 100 * 2000);
    checkpointer.stop();
    expect(checkpointer.hasThread).toBe(false);
    main.close();
  });

  it('starts the WAL over under writes that never pause, so it stays small', async () => {
    const { file, main, checkpointer, write } = withCheckpointer({ idleExitMs: 30_000, trickleMs: 60_000 });
    // As the server's connection: a write would wait for the thread's short hold of the write lock.
    main.exec('PRAGMA busy_timeout = 5000');
    const walFile = `${file}-wal`;
    let largestWal = 0;
    let writes = 0;
    let gated = 0;
    write();
    const startsBefore = walStarts(walFile);
    // 12,000 commits (at least 48 MB of WAL frames) in runs of 20, with the short pauses a busy relay has
    // between its transactions: the WAL is never idle long enough for a passive checkpoint to catch up. Each
    // commit first waits while the thread restarts the WAL, as the server's driver does before each
    // transaction.
    while (writes < 12_000) {
      for (let index = 0; index < 20; index += 1) {
        const wait = checkpointer.whenWritable();
        if (wait !== null) {
          gated += 1;
          await wait;
        }
        write();
      }
      writes += 20;
      largestWal = Math.max(largestWal, statSync(walFile).size);
      await sleep(0);
    }
    // The WAL started over several times (a round every 250 ms) …
    expect(walStarts(walFile) - startsBefore).toBeGreaterThanOrEqual(2);
    expect(gated).toBeGreaterThanOrEqual(1);
    // … so it holds a part of what was written (each commit wrote at least one 4 KB page), not all of it.
    expect(largestWal).toBeLessThan((writes * 4096) / 2);
    expect(main.prepare('SELECT count(*) AS n FROM filler').get()).toMatchObject({ n: writes + 1 });
    expect(checkpointer.whenWritable()).toBeNull();
    checkpointer.stop();
    main.close();
  });

  it('starts the WAL over under the server’s own transactions, which wait for it', async () => {
    const file = tempFile();
    const db = await openDb(file);
    await fill(db, 1);
    const startsBefore = walStarts(`${file}-wal`);
    // Transactions back to back through Kysely for 1.5 s (several checkpoint rounds), a few at a time as
    // concurrent requests settle.
    let rounds = 0;
    for (const startedAt = Date.now(); Date.now() - startedAt < 1_500; rounds += 1) {
      await Promise.all(
        [0, 1, 2, 3].map(() =>
          db.transaction().execute(async (trx) => {
            await sql`INSERT INTO filler (body) VALUES (${'y'.repeat(2000)})`.execute(trx);
            await sql`UPDATE filler SET body = ${'z'.repeat(100)} WHERE id = 1`.execute(trx);
          }),
        ),
      );
      if (rounds % 10 === 0) await sleep(1);
    }
    expect(walStarts(`${file}-wal`) - startsBefore).toBeGreaterThanOrEqual(2);
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM filler`.execute(db);
    expect(rows[0].n).toBe(1 + rounds * 4);
  });

  it('checkpoints a trickle of writes on the main connection, without a thread', async () => {
    const { file, main, checkpointer, write } = withCheckpointer({ idleExitMs: 30_000, trickleMs: 300 });
    const sizeBefore = statSync(file).size;
    for (let index = 0; index < 5; index += 1) write();
    expect(checkpointer.hasThread).toBe(false);
    expect(statSync(file).size).toBe(sizeBefore);
    await sleep(600);
    expect(statSync(file).size).toBeGreaterThan(sizeBefore + 5 * 2000);
    expect(checkpointer.hasThread).toBe(false);
    checkpointer.stop();
    main.close();
  });

  it('checkpoints on the main connection again when its thread cannot work', async () => {
    const file = tempFile();
    const main = new Sqlite(file);
    main.exec('PRAGMA journal_mode = WAL');
    const warnings: string[] = [];
    // A path the thread cannot open: its connection fails, the thread ends with an error.
    const checkpointer = new SqliteWriteThread(path.join(path.dirname(file), 'missing', 'x.db'), main, {
      warn: (message) => warnings.push(message),
    });
    expect(main.prepare('PRAGMA wal_autocheckpoint').get()).toMatchObject({ wal_autocheckpoint: 0 });
    for (let index = 0; index < 100; index += 1) checkpointer.written();
    for (let waited = 0; warnings.length === 0 && waited < 5_000; waited += 100) await sleep(100);
    expect(warnings[0]).toMatch(/checkpoints run on the main connection again/);
    expect(main.prepare('PRAGMA wal_autocheckpoint').get()).toMatchObject({ wal_autocheckpoint: 1000 });
    checkpointer.stop();
    main.close();
  });
});

const insertFiller = (body: string) => ['INSERT INTO filler (body) VALUES (?)', [body], 1];

function fillerBodies(main: Sqlite.Database): string[] {
  return (main.prepare('SELECT body FROM filler ORDER BY id').all() as Array<{ body: string }>).map(
    (row) => row.body,
  );
}

describe('transactions in the write thread', () => {
  it('commits a script and answers the rows its reading statements returned', async () => {
    const { main, checkpointer, write } = withCheckpointer({ idleExitMs: 30_000, trickleMs: 60_000 });
    for (let index = 0; index < 64; index += 1) write();
    expect(checkpointer.hasThread).toBe(true);
    const outcome = await checkpointer.runScript([
      ...insertFiller('a'),
      'INSERT INTO filler (body) VALUES (?) RETURNING id, body',
      ['b'],
      1,
      'SELECT count(*) AS n FROM filler',
      [],
      null,
    ]);
    expect(outcome).toEqual({ answers: [[{ id: 66, body: 'b' }], [{ n: 66 }]] });
    checkpointer.stop();
    main.close();
  });

  it('rolls back at the first count other than expected, or at an error, and says which', async () => {
    const { main, checkpointer, write } = withCheckpointer({ idleExitMs: 30_000, trickleMs: 60_000 });
    for (let index = 0; index < 64; index += 1) write();
    const before = fillerBodies(main).length;
    const mismatch = await checkpointer.runScript([
      ...insertFiller('kept?'),
      'UPDATE filler SET body = ? WHERE id = ?',
      ['z', -1],
      1,
      ...insertFiller('never run'),
    ]);
    expect(mismatch).toEqual({ mismatch: 1 });
    const failed = await checkpointer.runScript([
      ...insertFiller('kept?'),
      'INSERT INTO nowhere VALUES (1)',
      [],
      null,
    ]);
    expect(failed).toMatchObject({ error: { message: expect.stringMatching(/no such table/) } });
    expect(fillerBodies(main).length).toBe(before);
    expect(await checkpointer.runScript(insertFiller('after'))).toEqual({ answers: [] });
    expect(fillerBodies(main).at(-1)).toBe('after');
    checkpointer.stop();
    main.close();
  });

  it('keeps the other scripts of a group when one stops, and undoes that one whole', async () => {
    const { main, checkpointer, write } = withCheckpointer({ idleExitMs: 30_000, trickleMs: 60_000 });
    for (let index = 0; index < 64; index += 1) write();
    for (let round = 0; round < 20; round += 1) {
      // Handed over in one go: the thread mostly takes them in one transaction.
      const outcomes = await Promise.all([
        checkpointer.runScript(insertFiller(`a${round}`)),
        checkpointer.runScript([
          ...insertFiller(`b${round}`),
          'UPDATE filler SET body = ? WHERE id = ?',
          ['z', -1],
          1,
        ]),
        checkpointer.runScript([...insertFiller(`c${round}`), 'INSERT INTO nowhere VALUES (1)', [], null]),
        checkpointer.runScript(insertFiller(`d${round}`)),
      ]);
      expect(outcomes[0]).toEqual({ answers: [] });
      expect(outcomes[1]).toEqual({ mismatch: 1 });
      expect(outcomes[2]).toMatchObject({ error: { message: expect.stringMatching(/no such table/) } });
      expect(outcomes[3]).toEqual({ answers: [] });
    }
    const bodies = fillerBodies(main).filter((body) => /^[abcd]\d/.test(body));
    expect(bodies).toEqual(Array.from({ length: 20 }, (_, round) => [`a${round}`, `d${round}`]).flat());
    checkpointer.stop();
    main.close();
  });

  it('knows every statement of a script stopped halfway, for the scripts after it', async () => {
    const { main, checkpointer, write } = withCheckpointer({ idleExitMs: 30_000, trickleMs: 60_000 });
    for (let index = 0; index < 64; index += 1) write();
    const stopped = await checkpointer.runScript([
      ...insertFiller('a'),
      'UPDATE filler SET body = ? WHERE id = ?',
      ['z', -1],
      1,
      // Never reached: the scripts after this one use it all the same.
      'DELETE FROM filler WHERE body = ?',
      ['never'],
      null,
    ]);
    expect(stopped).toEqual({ mismatch: 1 });
    const next = await checkpointer.runScript([
      'DELETE FROM filler WHERE body = ?',
      ['b'],
      0,
      'UPDATE filler SET body = ? WHERE id = ?',
      ['y', -1],
      0,
      ...insertFiller('c'),
    ]);
    expect(next).toEqual({ answers: [] });
    expect(fillerBodies(main).at(-1)).toBe('c');
    checkpointer.stop();
    main.close();
  });

  it('never loses or repeats a script handed over while the thread ends for want of work', async () => {
    const { main, checkpointer, write } = withCheckpointer({ idleExitMs: 40, trickleMs: 60_000 });
    main.exec('PRAGMA busy_timeout = 5000');
    const sent: string[] = [];
    let onMain = 0;
    for (let round = 0; round < 80; round += 1) {
      if (!checkpointer.hasThread) for (let index = 0; index < 64; index += 1) write();
      // Around the thread's idle limit, so some scripts meet a thread about to end.
      await sleep(30 + (round % 7) * 4);
      const body = `s${round}`;
      sent.push(body);
      const outcome = await checkpointer.runScript(insertFiller(body));
      if (outcome === null || 'notRun' in outcome) {
        onMain += 1;
        main.prepare('INSERT INTO filler (body) VALUES (?)').run(body);
      } else {
        expect(outcome).toEqual({ answers: [] });
      }
    }
    const bodies = fillerBodies(main).filter((body) => body.startsWith('s'));
    expect(bodies).toEqual(sent);
    expect(onMain).toBeGreaterThan(0);
    checkpointer.stop();
    main.close();
  });

  it('says a script may have run only when the thread was stopped in the middle: the rest is exact', async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const { main, checkpointer, write } = withCheckpointer({ idleExitMs: 30_000, trickleMs: 60_000 });
      for (let index = 0; index < 64; index += 1) write();
      const outcomes = Array.from({ length: 200 }, (_, index) =>
        (checkpointer.runScript(insertFiller(`t${index}`)) as Promise<ScriptOutcome>).then(
          (outcome) => outcome,
          (error: unknown) => error,
        ),
      );
      await sleep(5 + attempt * 5);
      // As if the thread crashed: stopped from outside, wherever it is.
      await (checkpointer as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
      const settled = await Promise.all(outcomes);
      const bodies = new Set(fillerBodies(main));
      let lost = 0;
      settled.forEach((outcome, index) => {
        const isThere = bodies.has(`t${index}`);
        if (outcome instanceof WriteThreadLost) lost += 1;
        else if ('answers' in (outcome as ScriptOutcome)) expect(isThere).toBe(true);
        else expect([outcome, isThere]).toEqual([{ notRun: true }, false]);
      });
      expect(lost).toBeLessThanOrEqual(1);
      checkpointer.stop();
      main.close();
    }
  });
});
