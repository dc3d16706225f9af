import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowSeconds } from '@gatehouse/shared';
import { loadConfig } from '../src/config/config';
import { createDatabase, type Db } from '../src/db/database';
import { bundleGateway, startGatewayChild } from './support/gateway-child';

/**
 * The real server refuses to start on reservation records it cannot read — from a newer version, or with an
 * amount that makes no sense — saying which and why, and releases nothing; once they are dealt with, it starts.
 */
let bundle: string;
let dataDir: string;
let db: Db;
let database: { sqlDsn: string; sqlitePath: string };

beforeAll(async () => {
  bundle = await bundleGateway();
  dataDir = mkdtempSync(path.join(tmpdir(), 'gatehouse-refusal-'));
  database = { sqlDsn: '', sqlitePath: path.join(dataDir, 'gatehouse.db') };
  // A first start creates the schema.
  const first = await startGatewayChild(bundle, database);
  expect(await first.stop()).toBe(0);
  db = await createDatabase(
    loadConfig({ SQL_DSN: '', SQLITE_PATH: database.sqlitePath, SESSION_SECRET: 'refusal-test' }),
  );
}, 120_000);

afterAll(async () => {
  await db?.destroy();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(path.dirname(bundle), { recursive: true, force: true });
});

/** A record left by a process of this host that is gone (pid above Linux's pid_max), its lease run out. */
async function leaveRecord(values: { amount: number; format_version: number }) {
  await db.deleteFrom('quota_reservations').execute();
  await db
    .insertInto('quota_reservations')
    .values({
      id: 'left-behind',
      user_id: 1,
      token_id: 1,
      is_unlimited_token: 0,
      node_id: `${hostname()}/4194305/0badf00d`,
      created_at: nowSeconds() - 600,
      lease_expires_at: nowSeconds() - 300,
      ...values,
    })
    .execute();
}

async function rootQuota(): Promise<number> {
  const row = await db.selectFrom('users').select('quota').where('id', '=', 1).executeTakeFirstOrThrow();
  return Number(row.quota);
}

describe('start against reservation records this version cannot read', () => {
  it('refuses a record from a newer version, naming it, and releases nothing', async () => {
    await leaveRecord({ amount: 100, format_version: 2 });
    const before = await rootQuota();
    await expect(startGatewayChild(bundle, database)).rejects.toThrow(
      /will not start: quota_reservations holds records this version cannot settle: left-behind \(format 2, newer than this version understands \(1\)\)/,
    );
    expect(await rootQuota()).toBe(before);
    expect(await db.selectFrom('quota_reservations').select('id').execute()).toHaveLength(1);
  }, 120_000);

  it('refuses a record whose amount makes no sense', async () => {
    await leaveRecord({ amount: -5, format_version: 1 });
    await expect(startGatewayChild(bundle, database)).rejects.toThrow(
      /will not start: .*left-behind \(amount -5\)/,
    );
  }, 120_000);

  it('starts once the records are dealt with', async () => {
    await db.deleteFrom('quota_reservations').execute();
    const gateway = await startGatewayChild(bundle, database);
    expect(await gateway.stop()).toBe(0);
  }, 120_000);
});
