import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@gatehouse/shared';
import { createTestApp, createUserSession, envelope, type Session, type TestApp } from './test-app';

let test: TestApp;
let root: Session;

beforeAll(async () => {
  test = await createTestApp();
  root = await createUserSession(test, { role: Role.root });
});
afterAll(async () => {
  await test.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

async function call(method: Method, url: string, payload?: object) {
  return test.app.inject({ method, url, payload, headers: root.headers });
}

describe('Cache-Control: no-store on the management API', () => {
  it('marks every answer that carries a key, token, password or secret', async () => {
    const created = await call('POST', '/api/token/', {
      name: 'cached?',
      remain_quota: 1000,
      expired_time: -1,
      unlimited_quota: false,
    });
    expect(envelope(created).success).toBe(true);
    const tokenId = (await test.context.db.selectFrom('tokens').select('id').executeTakeFirstOrThrow()).id;
    const redemption = await call('POST', '/api/redemption/', { name: 'codes', quota: 10, count: 1 });
    expect(envelope(redemption).success).toBe(true);
    const channel = await call('POST', '/api/channel/', {
      type: 1,
      name: 'upstream',
      key: 'sk-upstream-secret',
      models: 'gpt-4o-mini',
      group: 'default',
    });
    expect(envelope(channel).success).toBe(true);
    const channelId = (await test.context.db.selectFrom('channels').select('id').executeTakeFirstOrThrow())
      .id;

    const answers: Array<[string, Awaited<ReturnType<typeof call>>]> = [
      ['POST /api/token/', created],
      ['GET /api/token/', await call('GET', '/api/token/')],
      ['GET /api/token/search', await call('GET', '/api/token/search?keyword=cached')],
      ['GET /api/token/{id}', await call('GET', `/api/token/${tokenId}`)],
      ['GET /api/user/token', await call('GET', '/api/user/token')],
      ['GET /api/user/self', await call('GET', '/api/user/self')],
      ['GET /api/option/', await call('GET', '/api/option/')],
      ['GET /api/channel/{id}', await call('GET', `/api/channel/${channelId}`)],
      ['POST /api/redemption/', redemption],
      ['GET /api/redemption/', await call('GET', '/api/redemption/')],
      ['GET /api/status', await call('GET', '/api/status')],
    ];
    for (const [name, response] of answers) {
      expect(response.statusCode, name).toBe(200);
      expect(response.headers['cache-control'], name).toBe('no-store');
    }
  });

  it('marks the login answer and the new password of a reset', async () => {
    const user = await createUserSession(test, { username: 'storeless' });
    await test.context.db
      .updateTable('users')
      .set({ email: 'storeless@example.com' })
      .where('id', '=', user.user.id)
      .execute();
    const token = await test.context.verificationCodes.issue('reset', 'storeless@example.com');
    const reset = await test.app.inject({
      method: 'POST',
      url: '/api/user/reset',
      payload: { email: 'storeless@example.com', token },
    });
    expect(envelope(reset).success).toBe(true);
    expect(reset.headers['cache-control']).toBe('no-store');
    const login = await test.app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { username: 'storeless', password: envelope<string>(reset).data },
    });
    expect(envelope(login).success).toBe(true);
    expect(login.headers['cache-control']).toBe('no-store');
  });

  it('marks refusals too (401, 404), and leaves the relay alone', async () => {
    const anonymous = await test.app.inject({ url: '/api/token/' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['cache-control']).toBe('no-store');
    const missing = await test.app.inject({ url: '/api/no-such-route' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
    const relay = await test.app.inject({ url: '/v1/models' });
    expect(relay.headers['cache-control']).toBeUndefined();
  });
});
