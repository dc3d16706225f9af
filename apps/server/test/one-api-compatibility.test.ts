import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LogType, Role, nowSeconds, type Log } from '@gatehouse/shared';
import { recordLog } from '../src/logs/log-writer';
import { rebuildRollups } from '../src/rollups/rollup-rebuild';
import { startOpenAIUpstream } from './support/openai-upstream';
import { startRelayKit } from './support/relay-kit';
import { createTestApp, createUserSession, envelope, type Session, type TestApp } from './test-app';

let test: TestApp;
let alice: Session;

beforeEach(async () => {
  test = await createTestApp();
  alice = await createUserSession(test, { quota: 1_000_000 });
});
afterEach(async () => {
  await test.close();
});

/** The server's calendar day of a time, written independently of the route's arithmetic. */
function localDay(seconds: number): string {
  const date = new Date(seconds * 1000);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

interface DashboardRow {
  day: string;
  model_name: string;
  request_count: number;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
}

describe('GET /api/user/dashboard (one-api console)', () => {
  it('answers own consumption per day and model over the last 7 days in one-api row shape, from the rollups', async () => {
    const bob = await createUserSession(test);
    const midnight = new Date();
    midnight.setHours(0, 0, 0, 0);
    const todayStart = midnight.getTime() / 1000;
    const now = nowSeconds();
    const firstDay = todayStart - 6 * 86_400;
    const consume = (
      session: Session,
      at: number,
      model: string,
      quota: number,
      type: number = LogType.consume,
    ) =>
      recordLog(test.context.db, {
        user_id: session.user.id,
        username: session.user.username,
        type,
        created_at: at,
        model_name: model,
        quota,
        // A failed relay request's row carries no usage (relay-failure-log.ts).
        prompt_tokens: type === LogType.error ? 0 : 10,
        completion_tokens: type === LogType.error ? 0 : 5,
      });
    await consume(alice, now, 'gpt-4o', 100);
    await consume(alice, now, 'gpt-4o', 50);
    await consume(alice, now, 'claude-sonnet-4', 7);
    await consume(alice, firstDay, 'gpt-4o', 30);
    // Outside the window, another user's, and a top-up: none counted.
    await consume(alice, firstDay - 1, 'gpt-4o', 1000);
    await consume(bob, now, 'gpt-4o', 2000);
    await consume(alice, now, '', 3000, LogType.topup);
    // A request refunded whole (an error row) is not consumption either.
    await consume(alice, now, 'gpt-4o', 0, LogType.error);
    await consume(alice, now, 'o3', 0, LogType.error);
    // The dashboard reads the daily rollups, which the settlement keeps; these rows were written directly.
    await rebuildRollups(test.context.db, firstDay - 86_400, now + 1);

    const response = await test.app.inject({ url: '/api/user/dashboard', headers: alice.headers });
    const body = envelope<DashboardRow[]>(response);
    expect(body).toMatchObject({ success: true, message: '' });
    expect(body.data).toEqual([
      {
        day: localDay(firstDay),
        model_name: 'gpt-4o',
        request_count: 1,
        quota: 30,
        prompt_tokens: 10,
        completion_tokens: 5,
      },
      {
        day: localDay(now),
        model_name: 'claude-sonnet-4',
        request_count: 1,
        quota: 7,
        prompt_tokens: 10,
        completion_tokens: 5,
      },
      {
        day: localDay(now),
        model_name: 'gpt-4o',
        request_count: 2,
        quota: 150,
        prompt_tokens: 20,
        completion_tokens: 10,
      },
    ]);
  });

  it('answers an empty list to a new user and 401 without a session', async () => {
    const body = envelope(await test.app.inject({ url: '/api/user/dashboard', headers: alice.headers }));
    expect(body).toMatchObject({ success: true, data: [] });
    expect((await test.app.inject({ url: '/api/user/dashboard' })).statusCode).toBe(401);
  });
});

describe('optional fields sent as null count as absent', () => {
  it('registers without an invite when aff_code, email and verification_code are null', async () => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/user/register',
      payload: {
        username: 'nullfan',
        password: 'password123',
        password2: 'password123',
        email: null,
        verification_code: null,
        aff_code: null,
      },
    });
    expect(envelope(response)).toMatchObject({ success: true });
    const user = await test.context.db
      .selectFrom('users')
      .select(['inviter_id', 'email'])
      .where('username', '=', 'nullfan')
      .executeTakeFirstOrThrow();
    expect(user).toEqual({ inviter_id: 0, email: '' });
  });

  it('still refuses a required field sent as null, with the field named', async () => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/user/register',
      payload: { username: null, password: 'password123', aff_code: null },
    });
    const body = envelope(response);
    expect(body.success).toBe(false);
    expect(body.message).not.toContain('aff_code');
  });

  it('creates a key with null optional fields as if they were left out', async () => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/token/',
      headers: alice.headers,
      payload: { name: 'nulls', remain_quota: null, expired_time: null, models: null, subnet: null },
    });
    expect(envelope(response)).toMatchObject({ success: true });
    const key = await test.context.db
      .selectFrom('tokens')
      .select(['expired_time', 'models', 'subnet', 'remain_quota'])
      .where('name', '=', 'nulls')
      .executeTakeFirstOrThrow();
    expect(key).toEqual({ expired_time: -1, models: '', subnet: '', remain_quota: 0 });
  });

  it('updates own account with a null display name and password left unchanged', async () => {
    const response = await test.app.inject({
      method: 'PUT',
      url: '/api/user/self',
      headers: alice.headers,
      payload: { display_name: null, password: null },
    });
    expect(envelope(response)).toMatchObject({ success: true });
    const reread = await test.app.inject({ url: '/api/user/self', headers: alice.headers });
    expect(envelope<{ username: string }>(reread).data.username).toBe(alice.user.username);
  });
});

describe('request_id on log rows', () => {
  it('is the id the relay answered in X-Request-Id, in the user and the admin log lists', async () => {
    const upstream = await startOpenAIUpstream('ids');
    const kit = await startRelayKit();
    try {
      const session = await createUserSession(kit.test, { quota: 10_000_000 });
      const admin = await createUserSession(kit.test, { role: Role.admin });
      const { key } = await kit.createKey(session.user.id);
      await kit.createChannel({ upstream, models: 'gpt-4o-mini' });
      const response = await fetch(`${kit.gatewayUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(response.status).toBe(200);
      const requestId = response.headers.get('x-request-id');
      expect(requestId).toBeTruthy();
      await kit.settle();
      for (const [url, headers] of [
        ['/api/log/self/?p=0', session.headers],
        ['/api/log/?p=0&type=2', admin.headers],
      ] as const) {
        const logs = envelope<Log[]>(await kit.test.app.inject({ url, headers })).data;
        expect(logs.map((log) => log.request_id)).toEqual([requestId]);
      }
    } finally {
      await kit.close();
      await upstream.close();
    }
  });
});
