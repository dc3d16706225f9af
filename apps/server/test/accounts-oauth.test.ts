import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UserStatus } from '@gatehouse/shared';
import { readBody } from './support/stand-in-server';
import { startFakeGitHub, type FakeGitHub } from './support/fake-github';
import { startFakeLark, type FakeLark } from './support/fake-lark';
import { createTestApp, createUserSession, envelope, sessionCookie, type TestApp } from './test-app';
import { SERVER_ADDRESS_MISSING } from '../src/auth/public-address';

const GITHUB_CLIENT_ID = 'Iv1.gatehouse-test';
const GITHUB_CLIENT_SECRET = 'github-client-secret';
const LARK_CLIENT_ID = 'cli_gatehouse_test';
const LARK_CLIENT_SECRET = 'lark-client-secret';

let github: FakeGitHub;
let lark: FakeLark;
let test: TestApp;

beforeAll(async () => {
  github = await startFakeGitHub(GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET);
  lark = await startFakeLark(LARK_CLIENT_ID, LARK_CLIENT_SECRET);
});
afterAll(async () => {
  await github.close();
  await lark.close();
});

beforeEach(async () => {
  test = await createTestApp({
    GITHUB_OAUTH_BASE_URL: github.url,
    GITHUB_API_BASE_URL: github.url,
    LARK_API_BASE_URL: lark.url,
  });
  const { options } = test.context;
  await options.set('GitHubOAuthEnabled', 'true');
  await options.set('GitHubClientId', GITHUB_CLIENT_ID);
  await options.set('GitHubClientSecret', GITHUB_CLIENT_SECRET);
  await options.set('LarkClientId', LARK_CLIENT_ID);
  await options.set('LarkClientSecret', LARK_CLIENT_SECRET);
  await options.set('ServerAddress', 'https://gate.example.com');
});
afterEach(async () => {
  await test.close();
});

/** The browser's cookie jar, reduced to a header: later values of a name replace earlier ones. */
function cookieHeader(...parts: Array<LightMyRequestResponse | string | undefined>): string {
  const jar = new Map<string, string>();
  for (const part of parts) {
    if (part === undefined) continue;
    if (typeof part === 'string') {
      for (const pair of part.split('; ')) {
        const [name, ...value] = pair.split('=');
        if (name) jar.set(name, value.join('='));
      }
    } else {
      for (const cookie of part.cookies) jar.set(cookie.name, cookie.value);
    }
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
}

/** GET /api/oauth/state as the console does before opening the provider's page. */
async function beginOAuth(sessionCookieHeader?: string) {
  const response = await test.app.inject({
    url: '/api/oauth/state',
    headers: sessionCookieHeader ? { cookie: sessionCookieHeader } : {},
  });
  const body = envelope<string>(response);
  expect(body.success).toBe(true);
  expect(body.data.length).toBeGreaterThanOrEqual(32);
  return { state: body.data, cookie: cookieHeader(sessionCookieHeader, response) };
}

function callback(provider: 'github' | 'lark', code: string, state: string, cookie: string) {
  return test.app.inject({
    url: `/api/oauth/${provider}?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`,
    headers: cookie ? { cookie } : {},
  });
}

const octocat = { id: 583231, login: 'octocat', name: 'The Octocat' };

describe('GitHub sign-in', () => {
  it('creates a user from the GitHub account, signs it in, and signs the same user in next time', async () => {
    const { state, cookie } = await beginOAuth();
    const code = github.authorize(octocat);
    const response = await callback('github', code, state, cookie);
    const body = envelope<{ id: number; username: string; display_name: string; github_id: string }>(
      response,
    );
    expect(body).toMatchObject({ success: true, message: 'Login successful!' });
    expect(body.data).toMatchObject({
      username: 'octocat',
      display_name: 'The Octocat',
      github_id: '583231',
    });

    // What GitHub received: the app's credentials and the code, then the token on /user.
    const exchange = github.requests.find((request) => request.path === '/login/oauth/access_token');
    expect(exchange?.headers.accept).toContain('application/json');
    expect(readBody(exchange!)).toMatchObject({
      client_id: GITHUB_CLIENT_ID,
      client_secret: GITHUB_CLIENT_SECRET,
      code,
    });
    const lookup = github.requests.findLast((request) => request.path === '/user');
    expect(lookup?.headers.authorization).toMatch(/^Bearer gho_/);

    const self = await test.app.inject({
      url: '/api/user/self',
      headers: { cookie: sessionCookie(response) },
    });
    expect(envelope<{ username: string }>(self).data.username).toBe('octocat');

    const second = await beginOAuth();
    const again = envelope<{ id: number }>(
      await callback('github', github.authorize(octocat), second.state, second.cookie),
    );
    expect(again.data.id).toBe(body.data.id);
    const count = await test.context.db
      .selectFrom('users')
      .select('id')
      .where('github_id', '=', '583231')
      .execute();
    expect(count).toHaveLength(1);
  });

  it('makes a unique username of at most 12 characters', async () => {
    await createUserSession(test, { username: 'hubber' });
    const first = await beginOAuth();
    const taken = envelope<{ username: string }>(
      await callback(
        'github',
        github.authorize({ id: 1, login: 'hubber', name: null }),
        first.state,
        first.cookie,
      ),
    );
    expect(taken.data.username).toMatch(/^hubber_\d{5}$/);

    const second = await beginOAuth();
    const long = envelope<{ username: string; display_name: string }>(
      await callback(
        'github',
        github.authorize({ id: 2, login: 'a-very-long-github-login', name: null }),
        second.state,
        second.cookie,
      ),
    );
    expect(long.data.username).toBe('a-very-long-');
    expect(long.data.display_name).toBe('a-very-long-github-l');
  });

  it('refuses a missing, wrong, foreign or reused state before calling GitHub', async () => {
    const { state, cookie } = await beginOAuth();
    const code = github.authorize(octocat);
    const before = github.requests.length;
    const refusal = 'The state is missing, wrong or expired; please start the sign-in again';
    expect(envelope(await callback('github', code, '', cookie)).message).toBe(refusal);
    expect(envelope(await callback('github', code, 'not-the-state', cookie)).message).toBe(refusal);
    // The right state from a browser that did not ask for it (login CSRF): refused, and the state is spent.
    expect(envelope(await callback('github', code, state, '')).message).toBe(refusal);
    expect(envelope(await callback('github', code, state, cookie)).message).toBe(refusal);
    expect(github.requests.length).toBe(before);

    const fresh = await beginOAuth();
    expect(envelope(await callback('github', code, fresh.state, fresh.cookie)).success).toBe(true);
    expect(envelope(await callback('github', code, fresh.state, fresh.cookie)).message).toBe(refusal);
  });

  it('refuses when GitHub sign-in is off, when registration is closed, and a banned user', async () => {
    await test.context.options.set('GitHubOAuthEnabled', 'false');
    let flow = await beginOAuth();
    expect(
      envelope(await callback('github', github.authorize(octocat), flow.state, flow.cookie)).message,
    ).toBe('The administrator has not enabled sign-in and registration with GitHub');

    await test.context.options.set('GitHubOAuthEnabled', 'true');
    await test.context.options.set('RegisterEnabled', 'false');
    flow = await beginOAuth();
    const closed = await callback('github', github.authorize(octocat), flow.state, flow.cookie);
    expect(envelope(closed).message).toBe('New user registration is turned off by the administrator');
    expect(
      await test.context.db.selectFrom('users').select('id').where('github_id', '!=', '').execute(),
    ).toEqual([]);

    const banned = await createUserSession(test);
    await test.context.db
      .updateTable('users')
      .set({ github_id: String(octocat.id), status: UserStatus.disabled })
      .where('id', '=', banned.user.id)
      .execute();
    flow = await beginOAuth();
    const response = await callback('github', github.authorize(octocat), flow.state, flow.cookie);
    expect(envelope(response)).toMatchObject({ success: false, message: 'This user has been banned' });
    expect(response.cookies.find((cookie) => cookie.name === 'gatehouse_session')).toBeUndefined();
  });

  it("passes GitHub's explanation of a bad code on", async () => {
    const { state, cookie } = await beginOAuth();
    const body = envelope(await callback('github', 'expired-code', state, cookie));
    expect(body).toMatchObject({
      success: false,
      message: 'GitHub sign-in failed: The code passed is incorrect or expired.',
    });
  });

  it('says so when GitHub cannot be reached', async () => {
    const unreachable = await createTestApp({ GITHUB_OAUTH_BASE_URL: 'http://127.0.0.1:9' });
    try {
      await unreachable.context.options.set('GitHubOAuthEnabled', 'true');
      const stateResponse = await unreachable.app.inject({ url: '/api/oauth/state' });
      const state = envelope<string>(stateResponse).data;
      const response = await unreachable.app.inject({
        url: `/api/oauth/github?code=abc&state=${state}`,
        headers: { cookie: cookieHeader(stateResponse) },
      });
      expect(envelope(response)).toMatchObject({
        success: false,
        message: 'Could not reach GitHub; please retry later',
      });
    } finally {
      await unreachable.close();
    }
  });
});

describe('GitHub binding', () => {
  it('binds the GitHub account to the signed-in user (message "bind")', async () => {
    const kim = await createUserSession(test);
    const { state, cookie } = await beginOAuth(kim.headers.cookie);
    const body = envelope<{ id: number; github_id: string }>(
      await callback('github', github.authorize(octocat), state, cookie),
    );
    expect(body).toMatchObject({ success: true, message: 'bind' });
    expect(body.data).toMatchObject({ id: kim.user.id, github_id: '583231' });
  });

  it('refuses a GitHub account bound to someone else, and a state issued to another session', async () => {
    const holder = await createUserSession(test);
    await test.context.db
      .updateTable('users')
      .set({ github_id: '583231' })
      .where('id', '=', holder.user.id)
      .execute();
    const kim = await createUserSession(test);
    let flow = await beginOAuth(kim.headers.cookie);
    expect(
      envelope(await callback('github', github.authorize(octocat), flow.state, flow.cookie)).message,
    ).toBe('This GitHub account is already bound to another user');

    // Issued to a visitor, completed while signed in: the session changed, so start again.
    flow = await beginOAuth();
    const mixed = cookieHeader(flow.cookie, kim.headers.cookie);
    expect(envelope(await callback('github', github.authorize(octocat), flow.state, mixed)).success).toBe(
      false,
    );
  });
});

describe('Lark sign-in', () => {
  const larkUser = { open_id: 'ou_7d8a6e6df7621556ce0d21922b676706', name: '张三' };

  it('exchanges the code with the redirect URI, creates a lark_ user and signs it in', async () => {
    const { state, cookie } = await beginOAuth();
    const code = lark.authorize(larkUser, 'https://gate.example.com/oauth/lark');
    const response = await callback('lark', code, state, cookie);
    const body = envelope<{ username: string; display_name: string; lark_id: string }>(response);
    expect(body).toMatchObject({ success: true, message: 'Login successful!' });
    expect(body.data.username).toMatch(/^lark_\d{6}$/);
    expect(body.data).toMatchObject({ display_name: '张三', lark_id: larkUser.open_id });

    const exchange = lark.requests.find((request) => request.path === '/open-apis/authen/v2/oauth/token');
    expect(exchange?.headers['content-type']).toContain('application/json');
    expect(readBody(exchange!)).toEqual({
      grant_type: 'authorization_code',
      client_id: LARK_CLIENT_ID,
      client_secret: LARK_CLIENT_SECRET,
      code,
      redirect_uri: 'https://gate.example.com/oauth/lark',
    });
    const info = lark.requests.findLast((request) => request.path === '/open-apis/authen/v1/user_info');
    expect(info?.headers.authorization).toMatch(/^Bearer u-/);
  });

  it('binds for a signed-in user and refuses when Lark is not configured', async () => {
    const kim = await createUserSession(test);
    let flow = await beginOAuth(kim.headers.cookie);
    const code = lark.authorize(larkUser, 'https://gate.example.com/oauth/lark');
    const bound = envelope<{ lark_id: string }>(await callback('lark', code, flow.state, flow.cookie));
    expect(bound).toMatchObject({ success: true, message: 'bind', data: { lark_id: larkUser.open_id } });

    await test.context.options.set('LarkClientSecret', '');
    flow = await beginOAuth();
    expect(
      envelope(await callback('lark', lark.authorize(larkUser, 'x'), flow.state, flow.cookie)).message,
    ).toBe('The administrator has not enabled sign-in and registration with Lark');
  });

  it("passes Lark's error on, e.g. a redirect URI that does not match", async () => {
    const { state, cookie } = await beginOAuth();
    const code = lark.authorize(larkUser, 'https://elsewhere.example.com/oauth/lark');
    const body = envelope(await callback('lark', code, state, cookie));
    expect(body.success).toBe(false);
    expect(body.message).toContain('Lark sign-in failed: The authorization code is not found');
  });

  it('refuses while ServerAddress is empty instead of building the redirect URI from the Host header', async () => {
    await test.context.options.set('ServerAddress', '');
    const { state, cookie } = await beginOAuth();
    const code = lark.authorize(larkUser, 'http://evil.example/oauth/lark');
    const callsBefore = lark.requests.length;
    const response = await test.app.inject({
      url: `/api/oauth/lark?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`,
      headers: { cookie, host: 'evil.example' },
    });
    expect(envelope(response)).toEqual({ success: false, message: SERVER_ADDRESS_MISSING });
    expect(lark.requests.length).toBe(callsBefore);
  });
});
