import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@gatehouse/shared';
import { createTestApp, createUserSession, loginAs, type Session, type TestApp } from './test-app';

/** Every route of the users-and-settings issue, with the lowest role allowed to call it. */
type Access = 'user' | 'admin' | 'root';

let test: TestApp;
let sessions: Record<'normal' | 'admin' | 'root', Session>;
let targetId: number;

beforeAll(async () => {
  test = await createTestApp({ RELEASES_URL: 'http://127.0.0.1:9/releases/latest' });
  sessions = {
    normal: await createUserSession(test, { role: Role.common }),
    admin: await createUserSession(test, { role: Role.admin }),
    root: await loginAs(test, 'root', '123456'),
  };
  const target = await createUserSession(test, { username: 'target' });
  targetId = target.user.id;
});
afterAll(async () => {
  await test.close();
});

const routes: Array<{ access: Access; request: () => InjectOptions }> = [
  { access: 'admin', request: () => ({ method: 'GET', url: '/api/user/?p=0' }) },
  { access: 'admin', request: () => ({ method: 'GET', url: '/api/user/search?keyword=target' }) },
  { access: 'admin', request: () => ({ method: 'GET', url: `/api/user/${targetId}` }) },
  {
    access: 'admin',
    request: () => ({ method: 'POST', url: '/api/user/', payload: { username: 'x', password: 'short' } }),
  },
  {
    access: 'admin',
    request: () => ({ method: 'PUT', url: '/api/user/', payload: { id: targetId, display_name: 'T' } }),
  },
  {
    access: 'admin',
    request: () => ({
      method: 'POST',
      url: '/api/user/manage',
      payload: { username: 'target', action: 'enable' },
    }),
  },
  { access: 'admin', request: () => ({ method: 'GET', url: '/api/group/' }) },
  { access: 'admin', request: () => ({ method: 'GET', url: '/api/release/latest' }) },
  { access: 'user', request: () => ({ method: 'GET', url: '/api/user/aff' }) },
  { access: 'user', request: () => ({ method: 'GET', url: '/api/user/available_models' }) },
  { access: 'root', request: () => ({ method: 'GET', url: '/api/option/' }) },
  {
    access: 'root',
    request: () => ({ method: 'PUT', url: '/api/option/', payload: { key: 'Notice', value: 'hello' } }),
  },
];

const allowedRoles: Record<Access, Array<keyof typeof sessions>> = {
  user: ['normal', 'admin', 'root'],
  admin: ['admin', 'root'],
  root: ['root'],
};

describe('role matrix', () => {
  for (const route of routes) {
    const { method, url } = route.request();
    it(`${String(method)} ${String(url)}: 401 anonymous, 403 below ${route.access}, answered above`, async () => {
      const anonymous = await test.app.inject(route.request());
      expect(anonymous.statusCode).toBe(401);
      for (const role of ['normal', 'admin', 'root'] as const) {
        const options = route.request();
        const response = await test.app.inject({ ...options, headers: sessions[role].headers });
        const isAllowed = allowedRoles[route.access].includes(role);
        expect({ role, status: response.statusCode }).toEqual({ role, status: isAllowed ? 200 : 403 });
        expect(response.json()).toHaveProperty('success');
      }
    });
  }

  it('DELETE /api/user/self: 401 anonymous, allowed for any signed-in user except root', async () => {
    expect((await test.app.inject({ method: 'DELETE', url: '/api/user/self' })).statusCode).toBe(401);
    const doomed = await createUserSession(test, { role: Role.admin });
    const response = await test.app.inject({
      method: 'DELETE',
      url: '/api/user/self',
      headers: doomed.headers,
    });
    expect(response.json()).toMatchObject({ success: true, message: 'Account deleted!' });
    const rootResponse = await test.app.inject({
      method: 'DELETE',
      url: '/api/user/self',
      headers: sessions.root.headers,
    });
    expect(rootResponse.json()).toMatchObject({
      success: false,
      message: 'The super admin cannot delete its own account',
    });
  });
});
