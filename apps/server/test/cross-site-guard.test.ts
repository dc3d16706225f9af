import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@gatehouse/shared';
import { CROSS_SITE_REFUSAL } from '../src/http/cross-site-guard';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';
import { createUserSession, envelope, type Session, type TestApp } from './test-app';

let kit: RelayKit;
let test: TestApp;
let upstream: OpenAIUpstream;
let admin: Session;

beforeAll(async () => {
  upstream = await startOpenAIUpstream('tested');
  kit = await startRelayKit();
  test = kit.test;
  admin = await createUserSession(test, { role: Role.admin });
});
afterAll(async () => {
  await kit.close();
  await upstream.close();
});

// What Chromium sends (see e2e/cross-site.spec.ts for the real browser). app.inject addresses "localhost:80".
const ATTACKER = 'http://127.0.0.2:8080';
/** A page on another site navigates the top-level window to the URL (a link, location.href, a GET form). */
const crossSiteNavigation = {
  'sec-fetch-site': 'cross-site',
  'sec-fetch-mode': 'navigate',
  'sec-fetch-dest': 'document',
  referer: `${ATTACKER}/lure.html`,
};
/** The console's own fetch() calls. */
const consoleFetch = {
  'sec-fetch-site': 'same-origin',
  'sec-fetch-mode': 'cors',
  referer: 'http://localhost/setting',
};

async function accessTokenOf(userId: number): Promise<string | null> {
  const row = await test.context.db
    .selectFrom('users')
    .select('access_token')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return row.access_token;
}

function expectRefused(response: Awaited<ReturnType<TestApp['app']['inject']>>): void {
  expect(response.statusCode).toBe(403);
  expect(response.json()).toEqual({ success: false, message: CROSS_SITE_REFUSAL });
}

describe('which requests count as cross-site (GET /api/user/token, which rotates the access token)', () => {
  const refused: Array<[string, Record<string, string>]> = [
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: cross-site with a navigation', crossSiteNavigation],
    [
      'Sec-Fetch-Site: same-site from another origin (a sibling subdomain or port)',
      { 'sec-fetch-site': 'same-site', origin: 'http://localhost:5173' },
    ],
    ['Sec-Fetch-Site: same-site without Origin or Referer', { 'sec-fetch-site': 'same-site' }],
    ['an unknown Sec-Fetch-Site value', { 'sec-fetch-site': 'elsewhere' }],
    ['no Fetch Metadata, an Origin of another site', { origin: ATTACKER }],
    ['no Fetch Metadata, an opaque Origin', { origin: 'null' }],
    ['no Fetch Metadata, a Referer of another site', { referer: `${ATTACKER}/lure.html` }],
    [
      'no Fetch Metadata, a foreign Origin beside a same-origin Referer',
      { origin: ATTACKER, referer: 'http://localhost/setting' },
    ],
  ];
  it.each(refused)('refuses %s with 403 and leaves the token as it was', async (_name, headers) => {
    const before = await accessTokenOf(admin.user.id);
    const response = await test.app.inject({
      url: '/api/user/token',
      headers: { ...admin.headers, ...headers },
    });
    expectRefused(response);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(await accessTokenOf(admin.user.id)).toBe(before);
  });

  const allowed: Array<[string, Record<string, string>]> = [
    ['no browser headers at all (curl, scripts)', {}],
    ['Sec-Fetch-Site: same-origin (the console)', consoleFetch],
    ['Sec-Fetch-Site: none (typed in the address bar)', { 'sec-fetch-site': 'none' }],
    ['no Fetch Metadata, the same Origin', { origin: 'http://localhost' }],
    ['no Fetch Metadata, a same-origin Referer', { referer: 'http://localhost/setting' }],
    [
      'Sec-Fetch-Site: same-site with our own Origin',
      { 'sec-fetch-site': 'same-site', origin: 'http://localhost' },
    ],
  ];
  it.each(allowed)('lets %s through', async (_name, headers) => {
    const before = await accessTokenOf(admin.user.id);
    const response = await test.app.inject({
      url: '/api/user/token',
      headers: { ...admin.headers, ...headers },
    });
    const body = envelope<string>(response);
    expect(body.success).toBe(true);
    expect(body.data).not.toBe(before);
    expect(await accessTokenOf(admin.user.id)).toBe(body.data);
  });

  it('accepts an Origin on the configured ServerAddress behind a proxy that rewrites Host', async () => {
    await test.context.options.set('ServerAddress', 'https://gate.example.com/');
    try {
      const response = await test.app.inject({
        url: '/api/user/token',
        headers: { ...admin.headers, host: '127.0.0.1:3000', origin: 'https://gate.example.com' },
      });
      expect(envelope(response).success).toBe(true);
    } finally {
      await test.context.options.set('ServerAddress', '');
    }
  });

  it('lets a script with an access token rotate it, but not a cross-site page carrying the same header', async () => {
    const token = (await accessTokenOf(admin.user.id)) ?? '';
    expect(token).not.toBe('');
    const script = await test.app.inject({ url: '/api/user/token', headers: { authorization: token } });
    expect(envelope(script).success).toBe(true);
    const fresh = envelope<string>(script).data;
    const page = await test.app.inject({
      url: '/api/user/token',
      headers: { authorization: fresh, 'sec-fetch-site': 'cross-site', origin: ATTACKER },
    });
    expectRefused(page);
    expect(await accessTokenOf(admin.user.id)).toBe(fresh);
  });
});

describe('GET /api/oauth/email/bind', () => {
  it('refuses a cross-site navigation: the e-mail stays and the code is not spent', async () => {
    const victim = await createUserSession(test);
    const code = await test.context.verificationCodes.issue('bind', 'attacker@evil.example');
    const url = `/api/oauth/email/bind?email=attacker%40evil.example&code=${code}`;
    expectRefused(await test.app.inject({ url, headers: { ...victim.headers, ...crossSiteNavigation } }));
    const self = envelope<{ email: string }>(
      await test.app.inject({ url: '/api/user/self', headers: victim.headers }),
    );
    expect(self.data.email).toBe('');

    // The same request from the console itself binds, with the very code the refusal left unspent.
    const own = await test.app.inject({ url, headers: { ...victim.headers, ...consoleFetch } });
    expect(envelope(own)).toMatchObject({ success: true, message: 'Email account bound successfully!' });
  });
});

describe('the channel tests (admins; each test is a paid upstream call)', () => {
  it('refuses GET /api/channel/test/{id} and /api/channel/test from another site without calling upstream', async () => {
    const id = await kit.createChannel({ upstream, models: 'gpt-4o-mini' });
    upstream.received.length = 0;
    for (const url of [`/api/channel/test/${id}`, '/api/channel/test?scope=all', '/api/channel/test']) {
      expectRefused(await test.app.inject({ url, headers: { ...admin.headers, ...crossSiteNavigation } }));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(upstream.received).toHaveLength(0);
    const row = await test.context.db
      .selectFrom('channels')
      .select('test_time')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.test_time).toBe(0);

    const own = await test.app.inject({
      url: `/api/channel/test/${id}`,
      headers: { ...admin.headers, ...consoleFetch },
    });
    expect(own.json()).toMatchObject({ success: true, model: 'gpt-4o-mini' });
    expect(upstream.received).toHaveLength(1);
  });
});

describe('the rest of the management API', () => {
  it('refuses GET /api/user/logout from another site, so the session survives', async () => {
    const user = await createUserSession(test);
    const response = await test.app.inject({
      url: '/api/user/logout',
      headers: { ...user.headers, ...crossSiteNavigation },
    });
    expectRefused(response);
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('refuses every other state-changing GET, and a HEAD of one, from another site', async () => {
    const urls = [
      '/api/user/aff',
      '/api/oauth/state',
      '/api/oauth/github?code=c&state=s',
      '/api/oauth/lark?code=c&state=s',
      '/api/oauth/wechat?code=c',
      '/api/oauth/wechat/bind?code=c',
      '/api/verification?email=a%40example.com',
      '/api/reset_password?email=a%40example.com',
    ];
    for (const url of urls) {
      expectRefused(
        await test.app.inject({ url, headers: { ...admin.headers, 'sec-fetch-site': 'cross-site' } }),
      );
    }
    const head = await test.app.inject({
      method: 'HEAD',
      url: '/api/user/token',
      headers: { ...admin.headers, 'sec-fetch-site': 'cross-site' },
    });
    expect(head.statusCode).toBe(403);
  });

  it('refuses POST, PUT and DELETE from another site by default, before the body is read', async () => {
    const user = await createUserSession(test, { username: 'csrfpost' });
    const attempts = [
      {
        method: 'POST' as const,
        url: '/api/user/login',
        payload: { username: 'csrfpost', password: 'password123' },
      },
      { method: 'PUT' as const, url: '/api/user/self', payload: { display_name: 'owned' } },
      {
        method: 'POST' as const,
        url: '/api/token/',
        payload: { name: 'planted', remain_quota: 0, unlimited_quota: true },
      },
      { method: 'DELETE' as const, url: '/api/user/self' },
      { method: 'POST' as const, url: '/api/no-such-route', payload: {} },
    ];
    for (const attempt of attempts) {
      const response = await test.app.inject({
        ...attempt,
        headers: { ...user.headers, 'sec-fetch-site': 'cross-site', origin: ATTACKER },
      });
      expectRefused(response);
    }
    const self = envelope<{ display_name: string }>(
      await test.app.inject({ url: '/api/user/self', headers: user.headers }),
    );
    expect(self.data.display_name).not.toBe('owned');
    expect(self.success).toBe(true);
    const tokens = await test.context.db
      .selectFrom('tokens')
      .select('id')
      .where('user_id', '=', user.user.id)
      .execute();
    expect(tokens).toHaveLength(0);
  });

  it('answers reads from another site as usual: the page cannot read them', async () => {
    const response = await test.app.inject({
      url: '/api/user/self',
      headers: { ...admin.headers, ...crossSiteNavigation },
    });
    expect(envelope(response).success).toBe(true);
  });

  it('leaves the relay alone: it is authenticated by keys, never by cookies', async () => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { 'sec-fetch-site': 'cross-site', origin: ATTACKER },
      payload: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(response.statusCode).toBe(401);
  });
});
