import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { LogType, Role, type Log, type LogPageEnvelope } from '@gatehouse/shared';
import type { NewLogRow } from '../src/db/schema';
import { LOG_EXPORT_BATCH_ROWS } from '../src/logs/log-export';
import { externalDatabaseServers, isListening } from './support/external-databases';
import { createTestApp, createUserSession, type Session, type TestApp } from './test-app';

const T0 = 1_700_000_000;
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function insertLogs(test: TestApp, rows: NewLogRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += 500) {
    await test.context.db
      .insertInto('logs')
      .values(rows.slice(start, start + 500))
      .execute();
  }
}

function logRow(session: Session, index: number, createdAt: number): NewLogRow {
  return {
    user_id: session.user.id,
    username: session.user.username,
    type: index % 5 === 0 ? LogType.error : LogType.consume,
    created_at: createdAt,
    token_name: index % 2 ? 'work' : 'home',
    model_name: index % 3 ? 'gpt-4o' : 'claude-3',
    channel_id: (index % 4) + 1,
    quota: index,
    content: `row ${index}`,
  };
}

async function page(test: TestApp, session: Session, url: string) {
  const response = await test.app.inject({ url, headers: session.headers });
  return { status: response.statusCode, body: response.json<LogPageEnvelope<Log[]>>() };
}

/** Follows next_cursor from the first page to the last; calls `between` after each page. */
async function readAll(
  test: TestApp,
  session: Session,
  base: string,
  between: (pageIndex: number) => Promise<void> = async () => {},
): Promise<Log[]> {
  const seen: Log[] = [];
  let cursor: string | null = null;
  for (let index = 0; index < 1000; index += 1) {
    const url: string = cursor ? `${base}&cursor=${encodeURIComponent(cursor)}` : base;
    const { body } = await page(test, session, url);
    expect(body.success).toBe(true);
    seen.push(...(body.data ?? []));
    cursor = body.next_cursor ?? null;
    if (!cursor) return seen;
    await between(index);
  }
  throw new Error('the cursor never ended');
}

const databases: Array<{ name: string; env: () => Promise<Record<string, string> | null> }> = [
  { name: 'SQLite', env: async () => ({}) },
  ...externalDatabaseServers.map((server) => ({
    name: server.name,
    env: async () => {
      if (!(await isListening(server.port))) return null;
      const database = await server.create('gatehouse_logpage');
      cleanups.push(database.drop);
      return { SQL_DSN: database.dsn };
    },
  })),
];

for (const database of databases) {
  describe(`keyset paging of the logs on ${database.name}`, () => {
    it('pages by cursor with no duplicate and no gap while rows are being written, alone or with filters', async (context) => {
      const env = await database.env();
      if (!env) return context.skip();
      const test = await createTestApp(env);
      cleanups.unshift(test.close);
      const admin = await createUserSession(test, { role: Role.admin });
      const alice = await createUserSession(test);
      const bob = await createUserSession(test);
      // Several rows share each second, so the cursor must break ties by id.
      const rows = Array.from({ length: 90 }, (_, index) =>
        logRow(index % 3 ? alice : bob, index, T0 + Math.floor(index / 4)),
      );
      await insertLogs(test, rows);
      const before = await page(test, admin, '/api/log/?p=0&size=100');
      const expected = before.body.data!.map((log) => log.id);
      expect(expected).toHaveLength(90);

      let written = 0;
      const writeNewer = async () => {
        // Newer rows (and one in the same second as the oldest, written later) land before the cursor.
        written += 1;
        await insertLogs(test, [logRow(alice, 1000 + written, T0 + 500 + written)]);
        await insertLogs(test, [logRow(bob, 2000 + written, T0 + 22)]);
      };
      const all = await readAll(test, admin, '/api/log/?size=7', writeNewer);
      expect(written).toBeGreaterThan(5);
      const ids = all.map((log) => log.id);
      expect(new Set(ids).size).toBe(ids.length);
      // Everything that was there at the start, in order; the rows written meanwhile only where they belong.
      expect(ids.filter((id) => expected.includes(id))).toEqual(expected);
      const keys = all.map((log) => [log.created_at, log.id] as const);
      for (let index = 1; index < keys.length; index += 1) {
        const [previousAt, previousId] = keys[index - 1]!;
        const [at, id] = keys[index]!;
        expect(at < previousAt || (at === previousAt && id < previousId)).toBe(true);
      }

      // Filters stay applied across pages: the cursor adds to them.
      const claudeAtWork = await readAll(
        test,
        admin,
        `/api/log/?size=3&model_name=claude-3&token_name=work&channel=4&start_timestamp=${T0}&end_timestamp=${T0 + 21}`,
      );
      const wanted = rows
        .map((row, index) => ({ row, index }))
        .filter(
          ({ row }) => row.model_name === 'claude-3' && row.token_name === 'work' && row.channel_id === 4,
        );
      expect(claudeAtWork.map((log) => log.quota).sort((a, b) => a - b)).toEqual(
        wanted.map(({ index }) => index).sort((a, b) => a - b),
      );
      const ownErrors = await readAll(test, alice, `/api/log/self/?size=4&type=${LogType.error}`);
      expect(ownErrors.length).toBeGreaterThan(0);
      expect(ownErrors.every((log) => log.user_id === alice.user.id && log.type === LogType.error)).toBe(
        true,
      );
      expect(ownErrors).toHaveLength(
        (
          await readAll(
            test,
            admin,
            `/api/log/?size=50&type=${LogType.error}&username=${alice.user.username}`,
          )
        ).length,
      );

      // p still pages by offset and hands over a cursor that continues where it stopped.
      const second = await page(test, admin, '/api/log/?p=1&size=10');
      const third = await page(test, admin, `/api/log/?size=10&cursor=${second.body.next_cursor}`);
      const byOffset = await page(test, admin, '/api/log/?p=2&size=10');
      expect(third.body.data!.map((log) => log.id)).toEqual(byOffset.body.data!.map((log) => log.id));
    });
  });
}

describe('bad cursors', () => {
  it('answer 400 naming the cursor', async () => {
    const test = await createTestApp();
    cleanups.unshift(test.close);
    const alice = await createUserSession(test);
    for (const cursor of [
      'nonsense!',
      'MTIz',
      Buffer.from('1:2:3').toString('base64url'),
      Buffer.from('1700000000:1099511627776').toString('base64url'),
      'x'.repeat(300),
    ]) {
      const { status, body } = await page(test, alice, `/api/log/self/?cursor=${encodeURIComponent(cursor)}`);
      expect(status, cursor).toBe(cursor.length > 200 ? 200 : 400);
      expect(body.success).toBe(false);
      expect(body.message).toMatch(/cursor/);
    }
  });
});

describe('failed attempts in the list', () => {
  it('show admins the upstream reason and users only that a channel was retried', async () => {
    const test = await createTestApp();
    cleanups.unshift(test.close);
    const admin = await createUserSession(test, { role: Role.admin });
    const alice = await createUserSession(test);
    const retries = [{ channel: 4, error: '401 invalid key sk-abc…' }];
    await insertLogs(test, [
      { ...logRow(alice, 1, T0), retries: JSON.stringify(retries), first_token_ms: 321 },
    ]);
    const [asAdmin] = (await page(test, admin, '/api/log/')).body.data!;
    expect(asAdmin).toMatchObject({ retries, first_token_ms: 321 });
    const [asAlice] = (await page(test, alice, '/api/log/self/')).body.data!;
    expect(asAlice).toMatchObject({ retries: [{ channel: 4, error: '' }], first_token_ms: 321 });
  });
});

describe('CSV export', () => {
  it('streams: rows written after the first bytes went out are still in the file', async () => {
    const test = await createTestApp();
    cleanups.unshift(test.close);
    const admin = await createUserSession(test, { role: Role.admin });
    const alice = await createUserSession(test);
    const total = LOG_EXPORT_BATCH_ROWS * 60;
    await insertLogs(
      test,
      Array.from({ length: total }, (_, index) => ({
        ...logRow(alice, index, T0 + 10_000 + index),
        content: `a line long enough to fill the socket sooner, number ${index}`,
      })),
    );
    await test.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = test.app.server.address() as AddressInfo;

    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      httpRequest({ port, host: '127.0.0.1', path: '/api/log/export', headers: admin.headers }, resolve)
        .on('error', reject)
        .end();
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/csv/);
    const chunks: Buffer[] = [];
    // The first bytes are here; the client stops reading for a while, then a row older than all is written.
    const first = await new Promise<Buffer>((resolve) =>
      response.once('data', (chunk: Buffer) => {
        response.pause();
        resolve(chunk);
      }),
    );
    chunks.push(first);
    await insertLogs(test, [{ ...logRow(alice, 999_999, T0), content: 'written after the export began' }]);
    for await (const chunk of response) chunks.push(chunk as Buffer);
    const lines = Buffer.concat(chunks).toString('utf8').trim().split('\r\n');
    expect(lines[0]).toMatch(/^id,time,type,username/);
    // A buffered export would have read every row before sending its first byte and missed the late one.
    expect(lines).toHaveLength(total + 2);
    expect(lines.at(-1)).toContain('written after the export began');
  });

  it('applies the filters and a user exports only its own rows', async () => {
    const test = await createTestApp();
    cleanups.unshift(test.close);
    const alice = await createUserSession(test);
    const bob = await createUserSession(test);
    await insertLogs(test, [
      { ...logRow(alice, 1, T0), model_name: '=cmd()', content: 'a, "quoted"\nline' },
      logRow(alice, 3, T0 + 1),
      logRow(bob, 4, T0 + 2),
    ]);
    const response = await test.app.inject({
      url: '/api/log/self/export?token_name=work',
      headers: alice.headers,
    });
    const lines = response.body.trim().split('\r\n');
    expect(lines).toHaveLength(3);
    // A file download named by the time of the export, as the console's button saves it.
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="logs-\d{8}-\d{6}\.csv"$/);
    expect(response.body).toContain(`'=cmd()`);
    expect(response.body).toContain('"a, ""quoted""\nline"');
    expect(response.body).not.toContain(bob.user.username);
  });
});
