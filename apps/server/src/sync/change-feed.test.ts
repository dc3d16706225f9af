import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config';
import { createDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { ChangeFeed } from './change-feed';

const folder = mkdtempSync(path.join(tmpdir(), 'gatehouse-feed-'));
const db = await createDatabase(loadConfig({ SQLITE_PATH: path.join(folder, 'feed.db') }));
afterAll(async () => {
  await db.destroy();
  rmSync(folder, { recursive: true, force: true });
});

describe('ChangeFeed', () => {
  it('fires a topic once per announcement, on every feed of the database, and never for what stood at start', async () => {
    const errors: unknown[] = [];
    const log = { error: (details: object) => errors.push(details) };
    // Before the table exists (a slave ahead of the master's migration): one logged error, not one per poll.
    const early = new ChangeFeed(db, log, 60_000);
    await early.poll();
    await early.poll();
    expect(errors).toHaveLength(1);
    await migrateToLatest(db);
    await db.updateTable('change_versions').set({ version: 7 }).where('topic', '=', 'users').execute();

    const first = new ChangeFeed(db, log, 60_000);
    const second = new ChangeFeed(db, log, 60_000);
    const heard: string[] = [];
    second.on('channels', () => heard.push('channels'));
    second.on('users', () => heard.push('users'));
    await first.start();
    await second.start();
    expect(heard).toEqual([]);

    await first.announce('channels');
    await first.announce('channels');
    await second.poll();
    expect(heard).toEqual(['channels']);
    await second.poll();
    expect(heard).toEqual(['channels']);
    await first.announce('users');
    await second.poll();
    expect(heard).toEqual(['channels', 'users']);
    // A topic with no row yet gets one at its first announcement, and is heard like the others.
    await db.deleteFrom('change_versions').where('topic', '=', 'keys').execute();
    const keys: number[] = [];
    second.on('keys', () => keys.push(1));
    await first.announce('keys');
    await second.poll();
    expect(keys).toEqual([1]);
    await first.stop();
    await second.stop();
    expect(errors).toHaveLength(1);
  });
});
