import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase, type Db } from '../database';
import { migrateToLatest } from '../migrate';
import { migrations } from './index';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function openDb(): Promise<Db> {
  const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-0019-'));
  const db = await createDatabase({
    databaseKind: 'sqlite',
    sqlDsn: '',
    sqlitePath: path.join(dir, 'db.sqlite'),
  });
  cleanups.push(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  return db;
}

async function tableSql(db: Db): Promise<string> {
  const { rows } = await sql<{ sql: string }>`
    select sql from sqlite_master where type = 'table' and name = 'quota_reservations'`.execute(db);
  return rows[0].sql;
}

const RESERVATION = {
  id: 'req-1',
  user_id: 7,
  token_id: 9,
  is_unlimited_token: 0,
  amount: 1234,
  node_id: 'node-a',
  created_at: 1_700_000_000,
  lease_expires_at: 1_700_000_060,
  format_version: 1,
};

describe('0019: reservations clustered on their key (SQLite)', () => {
  it('keeps the reservations under way and stores them WITHOUT ROWID; down undoes it', async () => {
    const db = await openDb();
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    await migrator.migrateTo('0018-quota-releases');
    await db.insertInto('quota_reservations').values(RESERVATION).execute();
    expect(await tableSql(db)).not.toMatch(/without rowid/i);

    await migrateToLatest(db);
    expect(await tableSql(db)).toMatch(/without rowid/i);
    expect(await db.selectFrom('quota_reservations').selectAll().execute()).toEqual([RESERVATION]);
    // The key still refuses a second record for the same request.
    await expect(db.insertInto('quota_reservations').values(RESERVATION).execute()).rejects.toThrow(/UNIQUE/);

    await migrator.migrateTo('0018-quota-releases');
    expect(await tableSql(db)).not.toMatch(/without rowid/i);
    expect(await db.selectFrom('quota_reservations').selectAll().execute()).toEqual([RESERVATION]);
  });
});
