import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LogType, Role, type Log } from '@gatehouse/shared';
import { recordLog } from '../src/logs/log-writer';
import { createTestApp, createUserSession, envelope, type Session, type TestApp } from './test-app';

let test: TestApp;
let admin: Session;
let alice: Session;
let bob: Session;
const T0 = 1_700_000_000;

beforeEach(async () => {
  test = await createTestApp();
  admin = await createUserSession(test, { role: Role.admin });
  alice = await createUserSession(test);
  bob = await createUserSession(test);
  const consume = (session: Session, at: number, fields: Record<string, unknown>) =>
    recordLog(test.context.db, {
      user_id: session.user.id,
      username: session.user.username,
      type: LogType.consume,
      created_at: at,
      content: 'model ratio 1',
      ...fields,
    });
  await consume(alice, T0 + 1, { model_name: 'gpt-4o', token_name: 'work', quota: 100, channel_id: 1 });
  await consume(alice, T0 + 2, { model_name: 'gpt-4o-mini', token_name: 'work', quota: 20, channel_id: 2 });
  await consume(alice, T0 + 3, {
    model_name: 'gpt-4o',
    token_name: 'home',
    quota: 300,
    channel_id: 2,
    is_stream: 1,
    request_id: 'req-alice-3',
    prompt_tokens: 12,
    completion_tokens: 34,
    elapsed_time: 1500,
  });
  await consume(bob, T0 + 4, {
    model_name: 'gpt-4o',
    token_name: 'work',
    quota: 4000,
    channel_id: 1,
    request_id: 'req-bob-4',
  });
  await recordLog(test.context.db, {
    user_id: alice.user.id,
    username: alice.user.username,
    type: LogType.topup,
    quota: 50000,
    content: 'Redeemed $0.10',
    created_at: T0 + 5,
  });
  await recordLog(test.context.db, {
    user_id: bob.user.id,
    username: bob.user.username,
    type: LogType.manage,
    content: 'quota changed by admin',
    created_at: T0 + 6,
  });
});
afterEach(async () => {
  await test.close();
});

async function list(session: Session, url: string): Promise<Log[]> {
  const body = envelope<Log[]>(await test.app.inject({ url, headers: session.headers }));
  expect(body.success).toBe(true);
  return body.data;
}
const quotas = (logs: Log[]) => logs.map((log) => log.quota);
async function stat(session: Session, url: string): Promise<number> {
  return envelope<{ quota: number }>(await test.app.inject({ url, headers: session.headers })).data.quota;
}

describe('GET /api/log/ (admin)', () => {
  it('lists every user, newest first, with channel and is_stream as the API names them', async () => {
    const logs = await list(admin, '/api/log/?p=0');
    expect(quotas(logs)).toEqual([0, 50000, 4000, 300, 20, 100]);
    expect(logs[3]).toMatchObject({
      username: alice.user.username,
      type: LogType.consume,
      model_name: 'gpt-4o',
      token_name: 'home',
      channel: 2,
      is_stream: true,
      prompt_tokens: 12,
      completion_tokens: 34,
      elapsed_time: 1500,
      created_at: T0 + 3,
    });
    expect(logs[3]).not.toHaveProperty('channel_id');
    expect(logs[4]?.is_stream).toBe(false);
  });

  it('filters by type, username, token, model, channel and time range, together', async () => {
    const filtered = (query: string) => list(admin, `/api/log/?p=0&${query}`).then(quotas);
    expect(await filtered('type=0')).toHaveLength(6);
    expect(await filtered('type=2')).toEqual([4000, 300, 20, 100]);
    expect(await filtered('type=1')).toEqual([50000]);
    expect(await filtered(`username=${bob.user.username}`)).toEqual([0, 4000]);
    expect(await filtered('token_name=work')).toEqual([4000, 20, 100]);
    expect(await filtered('model_name=gpt-4o')).toEqual([4000, 300, 100]);
    expect(await filtered('channel=2')).toEqual([300, 20]);
    expect(await filtered(`start_timestamp=${T0 + 2}&end_timestamp=${T0 + 4}`)).toEqual([4000, 300, 20]);
    expect(await filtered(`username=${alice.user.username}&model_name=gpt-4o&channel=1`)).toEqual([100]);
    expect(await filtered('username=nobody')).toEqual([]);
  });

  it('pages by 10 by default and exports up to 10000 rows with num', async () => {
    await test.context.db
      .insertInto('logs')
      .values(
        Array.from({ length: 105 }, (_, index) => ({
          user_id: alice.user.id,
          type: LogType.system,
          created_at: T0 + 100 + index,
        })),
      )
      .execute();
    expect(await list(admin, '/api/log/?p=0')).toHaveLength(10);
    expect(await list(admin, '/api/log/?p=11')).toHaveLength(1);
    expect(await list(admin, '/api/log/?p=0&size=500')).toHaveLength(100);
    const exported = await list(admin, '/api/log/?p=0&num=10000');
    expect(exported).toHaveLength(111);
    expect(exported[0]?.created_at).toBe(T0 + 204);
    expect(await list(admin, '/api/log/?p=0&num=999999')).toHaveLength(111);
  });

  it('refuses a bad filter with a clear message', async () => {
    const body = envelope(await test.app.inject({ url: '/api/log/?type=9', headers: admin.headers }));
    expect(body).toMatchObject({ success: false, message: expect.stringMatching(/type must be 0/) });
    const time = envelope(
      await test.app.inject({ url: '/api/log/?start_timestamp=yesterday', headers: admin.headers }),
    );
    expect(time.message).toMatch(/start_timestamp must be a whole number/);
  });

  it('is for admins only', async () => {
    expect((await test.app.inject({ url: '/api/log/', headers: alice.headers })).statusCode).toBe(403);
    expect((await test.app.inject({ url: '/api/log/stat', headers: alice.headers })).statusCode).toBe(403);
    expect((await test.app.inject({ url: '/api/log/' })).statusCode).toBe(401);
  });
});

describe('GET /api/log/self/', () => {
  it('lists only the own rows and ignores the username and channel filters', async () => {
    expect(quotas(await list(alice, '/api/log/self/?p=0'))).toEqual([50000, 300, 20, 100]);
    expect(quotas(await list(alice, `/api/log/self/?username=${bob.user.username}`))).toEqual([
      50000, 300, 20, 100,
    ]);
    expect(quotas(await list(alice, '/api/log/self/?channel=1'))).toEqual([50000, 300, 20, 100]);
    expect(quotas(await list(alice, '/api/log/self/?type=2&model_name=gpt-4o'))).toEqual([300, 100]);
    expect(quotas(await list(bob, '/api/log/self/?type=2'))).toEqual([4000]);
    expect((await test.app.inject({ url: '/api/log/self/' })).statusCode).toBe(401);
  });

  it("finds one request's entry by its request id, never another user's", async () => {
    expect(quotas(await list(alice, '/api/log/self/?request_id=req-alice-3'))).toEqual([300]);
    expect(quotas(await list(alice, '/api/log/self/?request_id=req-bob-4'))).toEqual([]);
    expect(quotas(await list(bob, '/api/log/self/?request_id=req-bob-4'))).toEqual([4000]);
    expect(quotas(await list(admin, '/api/log/?request_id=req-bob-4'))).toEqual([4000]);
  });
});

describe('log stat', () => {
  it('sums the spent quota for the same filters, or the chosen type', async () => {
    expect(await stat(admin, '/api/log/stat')).toBe(4420);
    expect(await stat(admin, '/api/log/stat?type=0&model_name=gpt-4o')).toBe(4400);
    expect(await stat(admin, `/api/log/stat?username=${alice.user.username}&channel=2`)).toBe(320);
    expect(await stat(admin, '/api/log/stat?type=1')).toBe(50000);
    expect(await stat(admin, `/api/log/stat?start_timestamp=${T0 + 3}&end_timestamp=${T0 + 3}`)).toBe(300);
    expect(await stat(admin, '/api/log/stat?model_name=none')).toBe(0);
    expect(await stat(alice, '/api/log/self/stat')).toBe(420);
    expect(await stat(alice, `/api/log/self/stat?username=${bob.user.username}`)).toBe(420);
    expect(await stat(bob, '/api/log/self/stat?token_name=work')).toBe(4000);
  });
});

describe('DELETE /api/log/', () => {
  it('removes rows older than target_timestamp and answers the count', async () => {
    const response = await test.app.inject({
      method: 'DELETE',
      url: `/api/log/?target_timestamp=${T0 + 3}`,
      headers: admin.headers,
    });
    expect(envelope(response)).toMatchObject({ success: true, data: 2, message: '2 logs cleaned up!' });
    expect(quotas(await list(admin, '/api/log/'))).toEqual([0, 50000, 4000, 300]);
  });

  it('needs an admin and a target', async () => {
    const asUser = await test.app.inject({
      method: 'DELETE',
      url: `/api/log/?target_timestamp=${T0 + 9}`,
      headers: alice.headers,
    });
    expect(asUser.statusCode).toBe(403);
    const missing = envelope(
      await test.app.inject({ method: 'DELETE', url: '/api/log/', headers: admin.headers }),
    );
    expect(missing).toMatchObject({
      success: false,
      message: expect.stringMatching(/target_timestamp is required/),
    });
    expect(await list(admin, '/api/log/')).toHaveLength(6);
  });
});
