import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Kysely, SqliteDialect, sql } from 'kysely';
import Sqlite from 'libsql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportRefusedError, importOneApi } from '../src/import/one-api-import';
import { openSource } from '../src/import/one-api-source';
import type { Db } from '../src/db/database';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';
import { createSourceDatabase, seedSource, type Product } from './support/one-api-fixtures';
import { externalDatabaseServers, isListening } from './support/external-databases';
import { createUserSession, envelope, loginAs } from './test-app';

/**
 * One-api and new-api databases built from their published table layouts, imported into a fresh Gatehouse:
 * old passwords sign in, old keys relay and are billed against the imported balances.
 */
const folder = mkdtempSync(path.join(tmpdir(), 'one-api-import-'));
let upstream: OpenAIUpstream;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  upstream = await startOpenAIUpstream('openai');
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await upstream.close();
  rmSync(folder, { recursive: true, force: true });
});

let fileCounter = 0;
async function sqliteSource(product: Product) {
  fileCounter += 1;
  const file = path.join(folder, `${product}-${fileCounter}.db`);
  const writer = await createSourceDatabase(product, 'sqlite', file);
  const seeded = await seedSource(writer, product, 'sqlite', upstream.url);
  await writer.destroy();
  const source = await openSource(file);
  cleanups.push(() => source.destroy());
  return { file, source, seeded };
}

async function kit(): Promise<RelayKit> {
  const started = await startRelayKit();
  cleanups.push(() => started.test.close());
  return started;
}

async function counts(db: Db) {
  const tables = ['users', 'tokens', 'channels', 'abilities', 'redemptions', 'logs'] as const;
  const result: Record<string, number> = {};
  for (const table of tables) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    result[table] = Number(row.n);
  }
  const options = await db.selectFrom('options').select(['key', 'value']).orderBy('key').execute();
  return { ...result, options: JSON.stringify(options) };
}

describe.each<Product>(['one-api', 'new-api'])('importing a %s database (SQLite source)', (product) => {
  it('signs users in with their old passwords and relays with their old keys, billed against the imported balance', async () => {
    const { source, seeded } = await sqliteSource(product);
    const gateway = await kit();
    const { db } = gateway.test.context;

    const report = await importOneApi(db, source, { withLogs: true });
    gateway.test.context.events.emit('channelsChanged');

    expect(report.product).toBe(product);
    expect(report.tables.users).toEqual({ read: 3, imported: 2, skipped: 1 });
    // our root was seeded at start: theirs collides and is reported, never overwritten
    expect(report.skipped).toContain('users: #1 root: the username is taken here (its keys are skipped too)');
    expect(report.skipped.some((line) => line.startsWith('tokens: #1 root key: its user #1'))).toBe(true);
    expect(report.tables.tokens).toEqual({ read: 3, imported: 2, skipped: 1 });
    expect(report.tables.channels).toEqual({ read: 3, imported: 3, skipped: 0 });
    expect(report.tables.options).toEqual({ read: 3, imported: 2, skipped: 1 });
    expect(report.skipped).toContain('options: SomeOneApiOnlyKnob: no such option here');

    const session = await loginAs(gateway.test, 'alice', seeded.password);
    expect(session.user.quota).toBe(seeded.aliceQuota);
    expect(session.user.used_quota).toBe(1234);
    expect(session.user.request_count).toBe(7);
    expect(session.user.group).toBe('vip');
    expect(session.user.github_id).toBe('gh-alice');
    const bob = await db
      .selectFrom('users')
      .selectAll()
      .where('username', '=', 'bob')
      .executeTakeFirstOrThrow();
    expect(bob.role).toBe(10);
    expect(bob.inviter_id).toBe(session.user.id);

    const completion = await gateway
      .client(seeded.aliceKey)
      .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.choices[0]?.message.content).toBeTruthy();
    expect(upstream.received.at(-1)?.headers.authorization).toBe('Bearer sk-upstream-1');
    await gateway.settle();
    const alice = await db
      .selectFrom('users')
      .selectAll()
      .where('username', '=', 'alice')
      .executeTakeFirstOrThrow();
    const aliceToken = await db
      .selectFrom('tokens')
      .selectAll()
      .where('user_id', '=', alice.id)
      .executeTakeFirstOrThrow();
    expect(alice.quota).toBeLessThan(seeded.aliceQuota);
    expect(aliceToken.remain_quota).toBe(500_000 - (seeded.aliceQuota - alice.quota));
    expect(aliceToken.unlimited_quota).toBe(0);

    const channels = await db.selectFrom('channels').selectAll().orderBy('id').execute();
    expect(channels.map((channel) => [channel.name, channel.type, channel.priority, channel.weight])).toEqual(
      [
        ['openai main', 1, 5, 3],
        ['claude', 14, 5, 3],
        ['deepseek', 36, 5, 3],
      ],
    );
    const abilities = await db
      .selectFrom('abilities')
      .select(['group', 'model', 'channel_id'])
      .where('channel_id', '=', channels[0]!.id)
      .orderBy('group')
      .orderBy('model')
      .execute();
    expect(abilities.map((row) => `${row.group}/${row.model}`)).toEqual([
      'default/gpt-4o',
      'default/gpt-4o-mini',
      'vip/gpt-4o',
      'vip/gpt-4o-mini',
    ]);
    const systemName = await db
      .selectFrom('options')
      .select('value')
      .where('key', '=', 'SystemName')
      .executeTakeFirst();
    expect(systemName?.value).toBe('Old Gateway');
    const logs = await db
      .selectFrom('logs')
      .selectAll()
      .where('request_id', '=', product === 'one-api' ? 'req-1' : '')
      .execute();
    expect(logs.find((log) => log.created_at === 1_700_000_300)?.elapsed_time).toBe(2000);
    const code = await db.selectFrom('redemptions').selectAll().executeTakeFirstOrThrow();
    expect(code.quota).toBe(50_000);
  });

  it('dry run reports the counts and writes nothing', async () => {
    const { source } = await sqliteSource(product);
    const gateway = await kit();
    const { db } = gateway.test.context;
    const before = await counts(db);
    const report = await importOneApi(db, source, { dryRun: true, withLogs: true });
    expect(report.dryRun).toBe(true);
    expect(report.tables.users?.imported).toBe(2);
    expect(report.tables.logs?.imported).toBe(1);
    expect(await counts(db)).toEqual(before);
  });
});

describe('POST /api/option/import-one-api (console)', () => {
  it('root runs a dry run, then the import; others and other sites are refused; input is validated', async () => {
    const { file, seeded } = await sqliteSource('new-api');
    const gateway = await kit();
    const { app, context } = gateway.test;
    const root = await loginAs(gateway.test, 'root', '123456');
    const admin = await createUserSession(gateway.test, { role: 10 });
    const call = (headers: Record<string, string>, payload: unknown) =>
      app.inject({ method: 'POST', url: '/api/option/import-one-api', headers, payload: payload as object });

    expect((await call(admin.headers, { from: file })).statusCode).toBe(403);
    const crossSite = await call({ ...root.headers, 'sec-fetch-site': 'cross-site' }, { from: file });
    expect(crossSite.statusCode).toBe(403);
    const missing = envelope(await call(root.headers, { dry_run: true }));
    expect(missing.success).toBe(false);
    expect(missing.message).toMatch(/^from: /);

    const before = await counts(context.db);
    const dry = envelope<{ dryRun: boolean; tables: Record<string, { imported: number }> }>(
      await call(root.headers, { from: file, dry_run: true }),
    );
    expect(dry.success).toBe(true);
    expect(dry.data.dryRun).toBe(true);
    expect(dry.data.tables.tokens?.imported).toBe(2);
    expect(await counts(context.db)).toEqual(before);

    const done = envelope<{ dryRun: boolean }>(await call(root.headers, { from: file }));
    expect(done.success).toBe(true);
    expect(JSON.stringify(done.data)).not.toContain('sk-upstream');
    expect(context.options.get('SystemName')).toBe('Old Gateway');
    const completion = await gateway
      .client(seeded.aliceKey)
      .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.choices).toHaveLength(1);
  });

  it('answers a refused source with its reason', async () => {
    const gateway = await kit();
    const root = await loginAs(gateway.test, 'root', '123456');
    const answer = envelope(
      await gateway.test.app.inject({
        method: 'POST',
        url: '/api/option/import-one-api',
        headers: root.headers,
        payload: { from: path.join(folder, 'missing.db'), dry_run: true },
      }),
    );
    expect(answer.success).toBe(false);
    expect(answer.message).toContain('no such SQLite file');
  });
});

describe('refusals and failures', () => {
  it('refuses a database that is not one-api or new-api, naming what it expected, and writes nothing', async () => {
    const file = path.join(folder, 'other.db');
    const other = new Kysely({ dialect: new SqliteDialect({ database: new Sqlite(file) }) });
    await sql`CREATE TABLE users (id integer primary key, email text)`.execute(other);
    await sql`CREATE TABLE posts (id integer primary key, body text)`.execute(other);
    await other.destroy();
    const source = await openSource(file);
    cleanups.push(() => source.destroy());
    const gateway = await kit();
    const before = await counts(gateway.test.context.db);
    const attempt = importOneApi(gateway.test.context.db, source);
    await expect(attempt).rejects.toBeInstanceOf(ImportRefusedError);
    await expect(attempt).rejects.toThrow(
      /expected the tables users\(id, username, password.*missing users\.username/,
    );
    expect(await counts(gateway.test.context.db)).toEqual(before);
  });

  it('reports a key that already exists here and keeps ours', async () => {
    const { source, seeded } = await sqliteSource('one-api');
    const gateway = await kit();
    const { db } = gateway.test.context;
    const owner = await gateway.createUser();
    await db
      .insertInto('tokens')
      .values({ user_id: owner.id, key: seeded.aliceKey.slice(3), name: 'ours' })
      .execute();
    const report = await importOneApi(db, source);
    expect(report.skipped).toContain('tokens: #2 alice key: the key sk-AbCd… exists here');
    const kept = await db
      .selectFrom('tokens')
      .selectAll()
      .where('key', '=', seeded.aliceKey.slice(3))
      .execute();
    expect(kept.map((token) => [token.user_id, token.name])).toEqual([[owner.id, 'ours']]);
  });

  it('a second run imports nothing again and reports every row it skipped', async () => {
    const { source } = await sqliteSource('one-api');
    const gateway = await kit();
    const { db } = gateway.test.context;
    await importOneApi(db, source);
    const after = await counts(db);
    const again = await importOneApi(db, source);
    expect(await counts(db)).toEqual(after);
    expect(again.tables.users?.imported).toBe(0);
    expect(again.tables.tokens?.imported).toBe(0);
    expect(again.tables.channels).toEqual({ read: 3, imported: 0, skipped: 3 });
    expect(again.tables.redemptions?.skipped).toBe(1);
  });

  it('copies every log row, page after page, with users and channels mapped to their new ids', async () => {
    const { file } = await sqliteSource('one-api');
    const writer = new Kysely<Record<string, Record<string, unknown>>>({
      dialect: new SqliteDialect({ database: new Sqlite(file) }),
    });
    const rows = Array.from({ length: 1500 }, (_, index) => ({
      user_id: 3,
      created_at: 1_700_001_000 + index,
      type: 2,
      content: '',
      username: 'bob',
      model_name: 'gpt-4o-mini',
      quota: 10,
      channel_id: 1,
    }));
    for (let start = 0; start < rows.length; start += 100) {
      await writer
        .insertInto('logs')
        .values(rows.slice(start, start + 100))
        .execute();
    }
    await writer.destroy();
    const source = await openSource(file);
    cleanups.push(() => source.destroy());
    const gateway = await kit();
    const { db } = gateway.test.context;
    const report = await importOneApi(db, source, { withLogs: true });
    expect(report.tables.logs).toEqual({ read: 1501, imported: 1501, skipped: 0 });
    const bob = await db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'bob')
      .executeTakeFirstOrThrow();
    const channel = await db
      .selectFrom('channels')
      .select('id')
      .where('name', '=', 'openai main')
      .executeTakeFirstOrThrow();
    const bobLogs = await db
      .selectFrom('logs')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', bob.id)
      .where('channel_id', '=', channel.id)
      .executeTakeFirstOrThrow();
    expect(Number(bobLogs.n)).toBe(1500);
  });

  it('leaves nothing behind when the import fails midway', async () => {
    const { source } = await sqliteSource('one-api');
    const gateway = await kit();
    const { db } = gateway.test.context;
    const before = await counts(db);
    const attempt = importOneApi(db, source, {
      withLogs: true,
      onTable: (table) => {
        if (table === 'redemptions') throw new Error('connection to the source lost');
      },
    });
    await expect(attempt).rejects.toThrow('connection to the source lost');
    expect(await counts(db)).toEqual(before);
  });
});

describe.each(externalDatabaseServers)('importing from $name', ({ port, create }) => {
  it.each<Product>(['one-api', 'new-api'])('%s: copies users, keys and channels', async (product) => {
    if (!(await isListening(port))) return;
    const database = await create('oneapi');
    cleanups.push(database.drop);
    const kind = database.dsn.startsWith('postgres') ? 'postgres' : 'mysql';
    const writer = await createSourceDatabase(product, kind, database.dsn);
    const seeded = await seedSource(writer, product, kind, upstream.url);
    await writer.destroy();
    const source = await openSource(database.dsn);
    cleanups.push(() => source.destroy());
    const gateway = await kit();
    const { db } = gateway.test.context;
    const report = await importOneApi(db, source, { withLogs: true });
    expect(report.product).toBe(product);
    expect(report.tables.users).toEqual({ read: 3, imported: 2, skipped: 1 });
    expect(report.tables.tokens?.imported).toBe(2);
    expect(report.tables.channels?.imported).toBe(3);
    expect(report.tables.logs?.imported).toBe(1);
    await loginAs(gateway.test, 'alice', seeded.password);
    const token = await db
      .selectFrom('tokens')
      .selectAll()
      .where('key', '=', seeded.aliceKey.slice(3))
      .executeTakeFirstOrThrow();
    expect([token.remain_quota, token.unlimited_quota]).toEqual([500_000, 0]);
    const bobToken = await db
      .selectFrom('tokens')
      .selectAll()
      .where('name', '=', 'bob key')
      .executeTakeFirstOrThrow();
    expect(bobToken.unlimited_quota).toBe(1);
  });
});
