import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Migrator } from 'kysely';
import { LogType, type DashboardData } from '@gatehouse/shared';
import { createDatabase, type Db } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';
import { migrations } from '../src/db/migrations/index';
import { rebuildAllRollups } from '../src/rollups/rollup-rebuild';
import { bucketStartOf } from '../src/rollups/rollup-buckets';
import { externalDatabaseServers, isListening } from './support/external-databases';
import { startOpenAIUpstream } from './support/openai-upstream';
import { startRelayKit } from './support/relay-kit';
import { envelope, loginAs } from './test-app';

/**
 * Audio and image tokens in the usage rollups, on SQLite, PostgreSQL and MySQL/MariaDB: migration 0014 gives
 * the logs already there zero media tokens, 0016 adds the rollup columns and fills them from the logs without
 * touching the other counters, and a settlement through the relay adds them like any other token kind.
 */
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

const media = [
  'audio_input_tokens',
  'image_input_tokens',
  'audio_output_tokens',
  'image_output_tokens',
] as const;

async function migrateTo(db: Db, name: string) {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error } = await migrator.migrateTo(name);
  if (error) throw error as Error;
}

const HOUR = bucketStartOf('hour', Math.floor(Date.now() / 1000) - 3 * 86_400);

function log(created: number, model: string, extra: Record<string, number> = {}) {
  return {
    user_id: 7,
    created_at: created,
    type: LogType.consume,
    username: 'alice',
    token_name: 'laptop',
    model_name: model,
    quota: 1000,
    prompt_tokens: 1000,
    completion_tokens: 500,
    channel_id: 3,
    // A multi-row INSERT needs one set of columns (SQLite has no DEFAULT in VALUES).
    ...(Object.keys(extra).length > 0
      ? { audio_input_tokens: 0, image_input_tokens: 0, audio_output_tokens: 0, image_output_tokens: 0 }
      : {}),
    ...extra,
  };
}

async function rollupRow(db: Db, table: 'usage_rollups_hourly' | 'usage_rollups_daily', model: string) {
  const row = await db
    .selectFrom(table)
    .selectAll()
    .where('model_name', '=', model)
    .executeTakeFirstOrThrow();
  return Object.fromEntries(
    Object.entries(row).map(([name, value]) => [name, typeof value === 'string' ? value : Number(value)]),
  );
}

async function checkMigrations(db: Db) {
  // A log written before 0014: no media columns yet.
  await migrateTo(db, '0013-log-paging-indexes');
  await db
    .insertInto('logs')
    .values(log(HOUR - 86_400, 'gpt-4o'))
    .execute();
  await migrateTo(db, '0015-oidc-id');
  const old = await db.selectFrom('logs').selectAll().executeTakeFirstOrThrow();
  for (const column of media) expect(Number(old[column])).toBe(0);
  expect(Number(old.audio_input_ratio)).toBe(0);
  // Logs with media tokens, summed into rollups that have no media columns yet (as before 0016).
  await db
    .insertInto('logs')
    .values([
      log(HOUR + 60, 'gpt-4o-audio-preview', { audio_input_tokens: 600, audio_output_tokens: 400 }),
      log(HOUR + 120, 'gpt-4o-audio-preview', { audio_input_tokens: 300, audio_output_tokens: 100 }),
      log(HOUR + 180, 'gpt-image-1', { image_input_tokens: 40, image_output_tokens: 4160 }),
    ])
    .execute();
  await rebuildAllRollups(db);
  await migrateToLatest(db);
  for (const table of ['usage_rollups_hourly', 'usage_rollups_daily'] as const) {
    expect(await rollupRow(db, table, 'gpt-4o-audio-preview')).toMatchObject({
      request_count: 2,
      quota: 2000,
      prompt_tokens: 2000,
      audio_input_tokens: 900,
      audio_output_tokens: 500,
      image_input_tokens: 0,
      image_output_tokens: 0,
    });
    expect(await rollupRow(db, table, 'gpt-image-1')).toMatchObject({
      request_count: 1,
      image_input_tokens: 40,
      image_output_tokens: 4160,
      audio_input_tokens: 0,
    });
    expect(await rollupRow(db, table, 'gpt-4o')).toMatchObject({ request_count: 1, audio_input_tokens: 0 });
  }
  // A rebuild from the logs now gives the same rows.
  const before = await rollupRow(db, 'usage_rollups_daily', 'gpt-4o-audio-preview');
  await rebuildAllRollups(db);
  expect(await rollupRow(db, 'usage_rollups_daily', 'gpt-4o-audio-preview')).toEqual(before);
}

/** An audio chat through the relay: its media tokens reach the rollups and the dashboard. */
async function checkSettlement(env: Record<string, string>) {
  const upstream = await startOpenAIUpstream('openai', {
    usage: { prompt: 1000, completion: 500, audioInput: 600, audioOutput: 400 },
  });
  const kit = await startRelayKit(env);
  cleanups.unshift(
    () => kit.close(),
    () => upstream.close(),
  );
  await kit.createChannel({ upstream, models: 'gpt-4o-audio-preview' });
  const user = await kit.createUser({ quota: 10_000_000 });
  const { key } = await kit.createKey(user.id);
  for (let index = 0; index < 2; index += 1) {
    await kit.client(key).chat.completions.create({
      model: 'gpt-4o-audio-preview',
      modalities: ['text', 'audio'],
      audio: { voice: 'alloy', format: 'wav' },
      messages: [{ role: 'user', content: 'Say hello' }],
    });
  }
  await kit.settle();
  const { db } = kit.test.context;
  for (const table of ['usage_rollups_hourly', 'usage_rollups_daily'] as const) {
    expect(await rollupRow(db, table, 'gpt-4o-audio-preview')).toMatchObject({
      request_count: 2,
      audio_input_tokens: 1200,
      audio_output_tokens: 800,
    });
  }
  const session = await loginAs(kit.test, user.username, 'password123');
  const dashboard = envelope<DashboardData>(
    await kit.test.app.inject({ url: '/api/dashboard', headers: session.headers }),
  );
  expect(dashboard.data.totals).toMatchObject({
    requests: 2,
    audio_input_tokens: 1200,
    audio_output_tokens: 800,
    image_input_tokens: 0,
  });
}

describe('media tokens in the rollups on SQLite', () => {
  it('0014 and 0016 keep and fill the counts, and a rebuild agrees', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'gatehouse-media-'));
    const db = await createDatabase({
      databaseKind: 'sqlite',
      sqlDsn: '',
      sqlitePath: join(folder, 'db.sqlite'),
    });
    cleanups.push(async () => {
      await db.destroy();
      rmSync(folder, { recursive: true, force: true });
    });
    await checkMigrations(db);
  });

  it('a settlement adds them, and the dashboard shows them', async () => {
    await checkSettlement({});
  });
});

for (const server of externalDatabaseServers) {
  const reachable = await isListening(server.port);
  describe.skipIf(!reachable)(`media tokens in the rollups on ${server.name}`, () => {
    it('0014 and 0016 keep and fill the counts, and a rebuild agrees', async () => {
      const database = await server.create('gatehouse_media');
      const kind = server.name === 'PostgreSQL' ? 'postgres' : 'mysql';
      const db = await createDatabase({ databaseKind: kind, sqlDsn: database.dsn, sqlitePath: '' });
      cleanups.push(async () => {
        await db.destroy();
        await database.drop();
      });
      await checkMigrations(db);
    });

    it('a settlement adds them, and the dashboard shows them', async () => {
      const database = await server.create('gatehouse_media_relay');
      cleanups.push(database.drop);
      await checkSettlement({ SQL_DSN: database.dsn });
    });
  });
}
