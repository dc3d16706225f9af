import type { LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TwoFactorEnrolment } from '@gatehouse/shared';
import { isListening } from './support/external-databases';
import { readBody } from './support/stand-in-server';
import { startFakeOidc, type FakeOidc, type IdTokenFault, type OidcAccount } from './support/fake-oidc';
import { createTestApp, createUserSession, envelope, sessionCookie, type TestApp } from './test-app';

const CLIENT_ID = 'gatehouse-console';
const CLIENT_SECRET = 'oidc-client-secret';
const SERVER_ADDRESS = 'https://gate.example.com';
const STATE_REFUSED = 'The state is missing, wrong or expired; please start the sign-in again';

const alice: OidcAccount = {
  sub: 'f3a9-alice',
  claims: {
    preferred_username: 'alice',
    name: 'Alice Liddell',
    email: 'alice@example.com',
    email_verified: true,
  },
};

const redisUp = await isListening(6379);

let provider: FakeOidc;
let test: TestApp;

beforeAll(async () => {
  provider = await startFakeOidc(CLIENT_ID, CLIENT_SECRET);
});
afterAll(async () => {
  await provider.close();
});

beforeEach(async () => {
  test = await createTestApp();
  const { options } = test.context;
  await options.set('ServerAddress', SERVER_ADDRESS);
  await options.set('OidcDiscoveryURL', provider.discoveryUrl);
  await options.set('OidcClientId', CLIENT_ID);
  await options.set('OidcClientSecret', CLIENT_SECRET);
  await options.set('OidcEnabled', 'true');
  provider.signInAs(alice);
  provider.requests.length = 0;
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

/**
 * What the browser does: the console asks for the start, the browser follows the provider's authorisation URL,
 * and the provider redirects it back to the console's /oauth/oidc page with code and state.
 */
async function throughProvider(session?: string) {
  const start = await test.app.inject({
    url: '/api/oauth/oidc/start',
    headers: session ? { cookie: session } : {},
  });
  const body = envelope<string>(start);
  expect(body).toMatchObject({ success: true });
  const cookie = cookieHeader(session, start);
  const atProvider = await fetch(body.data, { redirect: 'manual' });
  expect(atProvider.status).toBe(302);
  const back = new URL(atProvider.headers.get('location')!);
  expect(`${back.origin}${back.pathname}`).toBe(`${SERVER_ADDRESS}/oauth/oidc`);
  return { authorizeUrl: new URL(body.data), back, cookie };
}

function callback(search: string, cookie: string) {
  return test.app.inject({ url: `/api/oauth/oidc${search}`, headers: cookie ? { cookie } : {} });
}

async function signIn(session?: string) {
  const { back, cookie } = await throughProvider(session);
  return callback(back.search, cookie);
}

function usersWithOidc() {
  return test.context.db.selectFrom('users').selectAll().where('oidc_id', '!=', '').execute();
}

describe('OIDC sign-in', () => {
  it('creates the user from the mapped claims, signs it in, and finds it next time', async () => {
    const { authorizeUrl, back, cookie } = await throughProvider();
    // The authorisation request: code flow with PKCE S256, a nonce, the configured scopes, our callback page.
    expect(`${authorizeUrl.origin}${authorizeUrl.pathname}`).toBe(`${provider.url}/authorize`);
    expect(Object.fromEntries(authorizeUrl.searchParams)).toMatchObject({
      client_id: CLIENT_ID,
      response_type: 'code',
      scope: 'openid profile email',
      redirect_uri: `${SERVER_ADDRESS}/oauth/oidc`,
      code_challenge_method: 'S256',
      state: back.searchParams.get('state'),
    });
    expect(authorizeUrl.searchParams.get('nonce')?.length).toBeGreaterThanOrEqual(32);

    const response = await callback(back.search, cookie);
    const body = envelope<{
      id: number;
      username: string;
      display_name: string;
      email: string;
      oidc_id: string;
    }>(response);
    expect(body).toMatchObject({ success: true, message: 'Login successful!' });
    expect(body.data).toMatchObject({
      username: 'alice',
      display_name: 'Alice Liddell',
      email: 'alice@example.com',
      oidc_id: `${provider.url} ${alice.sub}`,
    });
    // The token request proved the client and the PKCE verifier.
    const exchange = provider.requests.find((request) => request.path === '/token');
    expect(readBody(exchange!)).toMatchObject({
      grant_type: 'authorization_code',
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      redirect_uri: `${SERVER_ADDRESS}/oauth/oidc`,
    });
    expect(readBody(exchange!).code_verifier.length).toBeGreaterThanOrEqual(43);

    const self = await test.app.inject({
      url: '/api/user/self',
      headers: { cookie: sessionCookie(response) },
    });
    expect(envelope<{ username: string }>(self).data.username).toBe('alice');

    const again = envelope<{ id: number }>(await signIn());
    expect(again).toMatchObject({ success: true, data: { id: body.data.id } });
    expect(await usersWithOidc()).toHaveLength(1);
  });

  it('follows the claim mapping options and reads /userinfo for claims the ID token lacks', async () => {
    await test.context.options.set('OidcUsernameClaim', 'nickname');
    await test.context.options.set('OidcDisplayNameClaim', 'given_name');
    provider.signInAs({
      sub: 'u-77',
      claims: { nickname: 'rabbit' },
      userinfo: { given_name: 'White Rabbit' },
    });
    const body = envelope<{ username: string; display_name: string; email: string }>(await signIn());
    expect(body.data).toMatchObject({ username: 'rabbit', display_name: 'White Rabbit', email: '' });
    expect(provider.requests.some((request) => request.path === '/userinfo')).toBe(true);
  });

  it('reads the discovery document once and again after a failed sign-in', async () => {
    const discoveries = () =>
      provider.requests.filter((request) => request.path === '/.well-known/openid-configuration').length;
    await signIn();
    await signIn();
    expect(discoveries()).toBe(1);
    provider.spoilNextIdToken('bad-signature');
    expect(envelope(await signIn()).success).toBe(false);
    await signIn();
    expect(discoveries()).toBe(2);
  });

  it.each<[IdTokenFault, string]>([
    [
      'bad-signature',
      'OIDC sign-in failed: the ID token’s signature does not verify against the provider’s keys',
    ],
    ['wrong-audience', 'OIDC sign-in failed: the ID token was issued for another client (audience)'],
    ['expired', 'OIDC sign-in failed: the ID token has expired'],
    ['wrong-nonce', 'OIDC sign-in failed: the ID token does not belong to this sign-in (nonce)'],
    ['wrong-issuer', 'OIDC sign-in failed: the ID token comes from another issuer'],
  ])('refuses an ID token with %s, and nothing about the user changes', async (fault, message) => {
    const first = envelope<{ id: number }>(await signIn());
    const before = await usersWithOidc();
    // The provider now says something else about alice; a refused token must not bring it in.
    provider.signInAs({ ...alice, claims: { ...alice.claims, name: 'Mallory' } });
    provider.spoilNextIdToken(fault);
    const refused = await signIn();
    expect(envelope(refused)).toEqual({ success: false, message });
    expect(refused.cookies.find((cookie) => cookie.name === 'gatehouse_session')).toBeUndefined();
    expect(await usersWithOidc()).toEqual(before);
    expect(before[0]?.id).toBe(first.data.id);
  });

  it('refuses an ID token for a new user without creating one', async () => {
    provider.spoilNextIdToken('expired');
    expect(envelope(await signIn()).success).toBe(false);
    expect(await usersWithOidc()).toHaveLength(0);
    expect(
      await test.context.db.selectFrom('users').select('id').where('username', '=', 'alice').execute(),
    ).toEqual([]);
  });

  it('spends the state once: a replayed callback is refused', async () => {
    const { back, cookie } = await throughProvider();
    expect(envelope(await callback(back.search, cookie)).success).toBe(true);
    expect(envelope(await callback(back.search, cookie))).toEqual({ success: false, message: STATE_REFUSED });
    // A fresh code does not revive a spent state either.
    const fresh = await throughProvider();
    const replay = new URLSearchParams(fresh.back.search);
    replay.set('state', back.searchParams.get('state')!);
    expect(envelope(await callback(`?${replay}`, cookie)).message).toBe(STATE_REFUSED);
  });

  it('refuses a state from another browser and one issued for GitHub', async () => {
    const { back } = await throughProvider();
    expect(envelope(await callback(back.search, '')).message).toBe(STATE_REFUSED);
    const github = await test.app.inject({ url: '/api/oauth/state' });
    const search = new URLSearchParams({ code: 'x', state: envelope<string>(github).data });
    expect(envelope(await callback(`?${search}`, cookieHeader(github))).message).toBe(STATE_REFUSED);
    expect(provider.requests.some((request) => request.path === '/token')).toBe(false);
  });

  it('names the missing code', async () => {
    expect(envelope(await callback('?state=abc', ''))).toMatchObject({
      success: false,
      message: 'The authorization code is missing',
    });
  });

  it('is refused when turned off, before reaching the provider', async () => {
    const { back, cookie } = await throughProvider();
    await test.context.options.set('OidcEnabled', 'false');
    const refused = 'The administrator has not enabled sign-in and registration with OIDC';
    expect(envelope(await callback(back.search, cookie))).toMatchObject({ success: false, message: refused });
    expect(envelope(await test.app.inject({ url: '/api/oauth/oidc/start' }))).toMatchObject({
      success: false,
      message: refused,
    });
    expect(provider.requests.some((request) => request.path === '/token')).toBe(false);
    expect(await usersWithOidc()).toHaveLength(0);
  });

  it('creates no user while registration is off', async () => {
    await test.context.options.set('RegisterEnabled', 'false');
    expect(envelope(await signIn())).toMatchObject({
      success: false,
      message: 'New user registration is turned off by the administrator',
    });
    expect(await usersWithOidc()).toHaveLength(0);
  });

  it('binds the account to the signed-in user, once', async () => {
    const bob = await createUserSession(test, { username: 'bob' });
    const bound = envelope<{ id: number; oidc_id: string }>(await signIn(bob.headers.cookie));
    expect(bound).toMatchObject({ success: true, message: 'bind', data: { id: bob.user.id } });
    expect(bound.data.oidc_id).toBe(`${provider.url} ${alice.sub}`);
    // Signing in with it now reaches bob.
    expect(envelope<{ id: number }>(await signIn()).data.id).toBe(bob.user.id);
    const carol = await createUserSession(test, { username: 'carol' });
    expect(envelope(await signIn(carol.headers.cookie))).toMatchObject({
      success: false,
      message: 'This OIDC account is already bound to another user',
    });
  });

  it('asks a user with two-factor sign-in for the code after the provider', async () => {
    const bob = await createUserSession(test, { username: 'bob' });
    await signIn(bob.headers.cookie);
    const post = (url: string, payload?: object) =>
      test.app.inject({ method: 'POST', url, headers: bob.headers, payload });
    const enrolment = envelope<TwoFactorEnrolment>(await post('/api/user/2fa/enroll')).data;
    const totp = new TOTP({ secret: Secret.fromBase32(enrolment.secret) });
    expect(envelope(await post('/api/user/2fa/confirm', { code: totp.generate() })).success).toBe(true);

    const first = await signIn();
    expect(envelope(first)).toEqual({
      success: true,
      message: 'Enter the code from your authenticator app',
      data: { require_2fa: true },
    });
    expect(first.cookies.find((cookie) => cookie.name === 'gatehouse_session')).toBeUndefined();
    const challenge = first.cookies.find((cookie) => cookie.name === 'gatehouse_2fa')!;
    const second = await test.app.inject({
      method: 'POST',
      url: '/api/user/login/2fa',
      headers: { cookie: `${challenge.name}=${challenge.value}` },
      payload: { code: totp.generate({ timestamp: Date.now() + 30_000 }) },
    });
    expect(envelope<{ id: number }>(second)).toMatchObject({ success: true, data: { id: bob.user.id } });
  });
});

describe('OIDC across servers and sites', () => {
  it('refuses the callback and the start from another site before anything runs', async () => {
    const { back, cookie } = await throughProvider();
    const crossSite = { cookie, 'sec-fetch-site': 'cross-site' };
    const refused = await test.app.inject({ url: `/api/oauth/oidc${back.search}`, headers: crossSite });
    expect(refused.statusCode).toBe(403);
    expect((await test.app.inject({ url: '/api/oauth/oidc/start', headers: crossSite })).statusCode).toBe(
      403,
    );
    // The state was not spent by the refused call: the same browser finishes from our own page.
    expect(envelope(await callback(back.search, cookie)).success).toBe(true);
  });

  it.skipIf(!redisUp)(
    'finishes on another server sharing Redis, and the state still works once',
    async () => {
      const other = await createTestApp({
        REDIS_CONN_STRING: 'redis://127.0.0.1:6379',
        SQLITE_PATH: test.context.config.sqlitePath,
      });
      const first = await createTestApp({
        REDIS_CONN_STRING: 'redis://127.0.0.1:6379',
        SQLITE_PATH: test.context.config.sqlitePath,
      });
      try {
        for (const app of [first, other]) {
          await app.context.options.set('ServerAddress', SERVER_ADDRESS);
          await app.context.options.set('OidcDiscoveryURL', provider.discoveryUrl);
          await app.context.options.set('OidcClientId', CLIENT_ID);
          await app.context.options.set('OidcClientSecret', CLIENT_SECRET);
          await app.context.options.set('OidcEnabled', 'true');
        }
        const start = await first.app.inject({ url: '/api/oauth/oidc/start' });
        const cookie = cookieHeader(start);
        const atProvider = await fetch(envelope<string>(start).data, { redirect: 'manual' });
        const search = new URL(atProvider.headers.get('location')!).search;
        const done = await other.app.inject({ url: `/api/oauth/oidc${search}`, headers: { cookie } });
        expect(envelope<{ username: string }>(done)).toMatchObject({
          success: true,
          data: { username: 'alice' },
        });
        const replay = await first.app.inject({ url: `/api/oauth/oidc${search}`, headers: { cookie } });
        expect(envelope(replay)).toMatchObject({ success: false, message: STATE_REFUSED });
      } finally {
        await first.close();
        await other.close();
      }
    },
  );
});

describe('OIDC options and status', () => {
  it('tells the console whether OIDC is on and its label, never the secret', async () => {
    await test.context.options.set('OidcProviderName', 'Company SSO');
    const status = (await test.app.inject({ url: '/api/status' })).json().data;
    expect(status).toMatchObject({ oidc: true, oidc_provider_name: 'Company SSO' });
    expect(JSON.stringify(status)).not.toContain(CLIENT_SECRET);
  });

  it('validates the options on save', async () => {
    const root = await createUserSession(test, { role: 100 });
    const save = (key: string, value: string) =>
      test.app
        .inject({ method: 'PUT', url: '/api/option', headers: root.headers, payload: { key, value } })
        .then((response) => envelope(response));
    expect(
      await save('OidcDiscoveryURL', 'ftp://idp.example.com/.well-known/openid-configuration'),
    ).toMatchObject({
      success: false,
      message: 'OidcDiscoveryURL must be an http:// or https:// address',
    });
    expect(await save('OidcScopes', 'profile email')).toMatchObject({
      success: false,
      message: 'OidcScopes must include openid',
    });
    expect(await save('OidcEnabled', 'false')).toMatchObject({ success: true });
    expect(await save('OidcClientSecret', '')).toMatchObject({ success: true });
    expect(await save('OidcEnabled', 'true')).toMatchObject({
      success: false,
      message: 'Fill in the OIDC discovery URL, client ID and client secret before enabling OIDC sign-in',
    });
  });
});
