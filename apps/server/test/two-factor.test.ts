import type { LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Role,
  TWO_FACTOR_ENROLMENT_REQUIRED_MESSAGE,
  type RecoveryCodes,
  type TwoFactorEnrolment,
  type TwoFactorStatus,
} from '@gatehouse/shared';
import { openTwoFactorSecret, sealTwoFactorSecret } from '../src/auth/two-factor-secret';
import { loadConfig } from '../src/config/config';
import { externalDatabaseServers, isListening } from './support/external-databases';
import { startFakeGitHub, type FakeGitHub } from './support/fake-github';
import {
  createTestApp,
  createUserSession,
  envelope,
  loginAs,
  sessionCookie,
  type Session,
  type TestApp,
} from './test-app';

const PASSWORD = 'password123';
const WRONG_CODE = 'The code is wrong or has already been used';
const SIGN_IN_EXPIRED = 'The sign-in has expired; please sign in again';

let test: TestApp;
beforeEach(async () => {
  test = await createTestApp();
});
afterEach(async () => {
  await test.close();
});

interface Enrolled {
  totp: TOTP;
  recoveryCodes: string[];
  /** a code of the time step after the one the enrolment was confirmed with (that one is spent) */
  nextCode(): string;
}

function post(url: string, headers: Record<string, string>, payload?: object) {
  return test.app.inject({ method: 'POST', url, headers, payload });
}

/** Enrols the session's user the way the console does: start, read the secret, confirm with a code. */
async function enrol(session: Session): Promise<Enrolled> {
  const start = envelope<TwoFactorEnrolment>(await post('/api/user/2fa/enroll', session.headers));
  expect(start.success).toBe(true);
  const totp = new TOTP({ secret: Secret.fromBase32(start.data.secret) });
  const confirmed = envelope<RecoveryCodes>(
    await post('/api/user/2fa/confirm', session.headers, { code: totp.generate() }),
  );
  expect(confirmed.success).toBe(true);
  return {
    totp,
    recoveryCodes: confirmed.data.recovery_codes,
    nextCode: () => totp.generate({ timestamp: Date.now() + 30_000 }),
  };
}

function passwordLogin(username: string, password = PASSWORD) {
  return test.app.inject({ method: 'POST', url: '/api/user/login', payload: { username, password } });
}

function challengeCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((candidate) => candidate.name === 'gatehouse_2fa');
  if (!cookie) throw new Error('no two-factor cookie in the response');
  return `${cookie.name}=${cookie.value}`;
}

function secondStep(cookie: string, code: string) {
  return test.app.inject({
    method: 'POST',
    url: '/api/user/login/2fa',
    headers: cookie ? { cookie } : {},
    payload: { code },
  });
}

/** The first step for a user with two-factor sign-in: no session, a challenge cookie. */
async function startSignIn(username: string): Promise<string> {
  const response = await passwordLogin(username);
  expect(envelope(response)).toEqual({
    success: true,
    message: 'Enter the code from your authenticator app',
    data: { require_2fa: true },
  });
  expect(response.cookies.find((cookie) => cookie.name === 'gatehouse_session')).toBeUndefined();
  return challengeCookie(response);
}

function status(session: Session) {
  return test.app
    .inject({ url: '/api/user/2fa', headers: session.headers })
    .then((response) => envelope<TwoFactorStatus>(response).data);
}

describe('enrolment', () => {
  it('answers a standard otpauth URI and QR code, stores the secret sealed, and turns on with a first code', async () => {
    const alice = await createUserSession(test);
    const start = envelope<TwoFactorEnrolment>(await post('/api/user/2fa/enroll', alice.headers));
    const uri = new URL(start.data.uri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe(`/Gatehouse:${alice.user.username}`);
    expect(Object.fromEntries(uri.searchParams)).toMatchObject({
      secret: start.data.secret,
      issuer: 'Gatehouse',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
    expect(start.data.qr_code).toMatch(/^data:image\/png;base64,/);
    expect(await status(alice)).toEqual({
      enabled: false,
      pending: true,
      recovery_codes_left: 0,
      requires_password: true,
    });
    // Pending: a sign-in still needs no code.
    expect(envelope<{ username: string }>(await passwordLogin(alice.user.username)).data.username).toBe(
      alice.user.username,
    );

    const stored = await test.context.db
      .selectFrom('two_factor')
      .selectAll()
      .where('user_id', '=', alice.user.id)
      .executeTakeFirstOrThrow();
    expect(stored.secret).toMatch(/^aes1:/);
    expect(stored.secret).not.toContain(start.data.secret);

    const totp = new TOTP({ secret: Secret.fromBase32(start.data.secret) });
    const wrong = await post('/api/user/2fa/confirm', alice.headers, { code: '000000' });
    expect(envelope(wrong)).toMatchObject({ success: false, message: WRONG_CODE });
    const missing = await post('/api/user/2fa/confirm', alice.headers, {});
    expect(envelope(missing).message).toMatch(/^code: /);

    const confirmed = envelope<RecoveryCodes>(
      await post('/api/user/2fa/confirm', alice.headers, { code: totp.generate() }),
    );
    expect(confirmed.success).toBe(true);
    expect(confirmed.data.recovery_codes).toHaveLength(10);
    expect(new Set(confirmed.data.recovery_codes).size).toBe(10);
    expect(await status(alice)).toMatchObject({ enabled: true, pending: false, recovery_codes_left: 10 });
    const self = await test.app.inject({ url: '/api/user/self', headers: alice.headers });
    expect(envelope<{ two_factor_enabled: boolean }>(self).data.two_factor_enabled).toBe(true);

    // Only hashes are kept.
    const hashes = await test.context.db
      .selectFrom('two_factor_recovery_codes')
      .select('code_hash')
      .where('user_id', '=', alice.user.id)
      .execute();
    expect(hashes).toHaveLength(10);
    const plain = confirmed.data.recovery_codes.map((code) => code.replace('-', ''));
    for (const { code_hash } of hashes) expect(plain).not.toContain(code_hash);

    // Enrolling again while on is refused; turning off comes first.
    expect(envelope(await post('/api/user/2fa/enroll', alice.headers)).success).toBe(false);
  });

  it('keeps the secret only under the key it was sealed with', () => {
    const base = { SQLITE_PATH: ':memory:' };
    const first = loadConfig({ ...base, SESSION_SECRET: 'the-first-session-secret-long-enough' });
    const second = loadConfig({ ...base, SESSION_SECRET: 'another-session-secret-long-enough' });
    const random = loadConfig(base);
    const sealed = sealTwoFactorSecret(first, 'JBSWY3DPEHPK3PXP');
    expect(openTwoFactorSecret(first, sealed)).toBe('JBSWY3DPEHPK3PXP');
    expect(openTwoFactorSecret(second, sealed)).toBeNull();
    // Without a configured SESSION_SECRET there is no lasting key: stored as is, and readable after a restart.
    expect(sealTwoFactorSecret(random, 'JBSWY3DPEHPK3PXP')).toBe('plain:JBSWY3DPEHPK3PXP');
    expect(openTwoFactorSecret(second, 'plain:JBSWY3DPEHPK3PXP')).toBe('JBSWY3DPEHPK3PXP');
  });
});

describe('sign-in with a second factor', () => {
  it('asks for a code after the password; a wrong or replayed code is refused, a fresh one signs in', async () => {
    const alice = await createUserSession(test);
    const enrolled = await enrol(alice);

    const cookie = await startSignIn(alice.user.username);
    // The challenge cookie is no session.
    expect((await test.app.inject({ url: '/api/user/self', headers: { cookie } })).statusCode).toBe(401);
    expect(envelope(await secondStep(cookie, '123456'))).toMatchObject({
      success: false,
      message: WRONG_CODE,
    });
    expect(envelope(await secondStep(cookie, 'not-a-recovery-code')).message).toBe(WRONG_CODE);
    // The code the enrolment was confirmed with is spent already.
    expect(envelope(await secondStep(cookie, enrolled.totp.generate())).message).toBe(WRONG_CODE);

    const code = enrolled.nextCode();
    const signedIn = await secondStep(cookie, code);
    expect(envelope(signedIn)).toMatchObject({
      success: true,
      message: 'Login successful!',
      data: { username: alice.user.username },
    });
    const self = await test.app.inject({
      url: '/api/user/self',
      headers: { cookie: sessionCookie(signedIn) },
    });
    expect(self.statusCode).toBe(200);
    // The challenge works once.
    expect(envelope(await secondStep(cookie, code)).message).toBe(SIGN_IN_EXPIRED);

    // The same code again, in a new sign-in: replayed, refused.
    const again = await startSignIn(alice.user.username);
    const replayed = await secondStep(again, code);
    expect(envelope(replayed)).toMatchObject({ success: false, message: WRONG_CODE });
    expect(replayed.cookies.find((entry) => entry.name === 'gatehouse_session')).toBeUndefined();
  });

  it('takes each recovery code once', async () => {
    const alice = await createUserSession(test);
    const { recoveryCodes } = await enrol(alice);
    const [first] = recoveryCodes;

    // Typed in capitals and without the dash still counts.
    const signedIn = await secondStep(
      await startSignIn(alice.user.username),
      first!.toUpperCase().replace('-', ''),
    );
    expect(envelope(signedIn).success).toBe(true);
    expect((await status(alice)).recovery_codes_left).toBe(9);

    const reused = await secondStep(await startSignIn(alice.user.username), first!);
    expect(envelope(reused)).toMatchObject({ success: false, message: WRONG_CODE });
  });

  it('needs the challenge cookie, and ends the challenge after five wrong codes or five minutes', async () => {
    const alice = await createUserSession(test);
    const enrolled = await enrol(alice);
    expect(envelope(await secondStep('', enrolled.nextCode())).message).toBe(SIGN_IN_EXPIRED);
    expect(envelope(await secondStep('gatehouse_2fa=forged', enrolled.nextCode())).message).toBe(
      SIGN_IN_EXPIRED,
    );
    expect(envelope(await test.app.inject({ method: 'POST', url: '/api/user/login/2fa' })).message).toMatch(
      /^code: /,
    );

    const cookie = await startSignIn(alice.user.username);
    for (let attempt = 1; attempt < 5; attempt += 1) {
      expect(envelope(await secondStep(cookie, '000000')).message).toBe(WRONG_CODE);
    }
    expect(envelope(await secondStep(cookie, '000000')).message).toBe(
      'Too many wrong codes; please sign in again',
    );
    expect(envelope(await secondStep(cookie, enrolled.nextCode())).message).toBe(SIGN_IN_EXPIRED);

    const late = await startSignIn(alice.user.username);
    await test.context.db.updateTable('two_factor_challenges').set({ expires_at: 1 }).execute();
    expect(envelope(await secondStep(late, enrolled.nextCode())).message).toBe(SIGN_IN_EXPIRED);
  });

  it('counts every code tried against the login rate limit', async () => {
    await test.close();
    test = await createTestApp({ CRITICAL_RATE_LIMIT: '5' });
    const alice = await createUserSession(test, { role: Role.common });
    await enrol(alice);
    // Three counted so far: the sign-in of createUserSession, the enrolment's confirm, this password step.
    const cookie = challengeCookie(await passwordLogin(alice.user.username));
    expect(envelope(await secondStep(cookie, '000000')).message).toBe(WRONG_CODE);
    expect(envelope(await secondStep(cookie, '111111')).message).toBe(WRONG_CODE);
    const refused = await secondStep(cookie, '222222');
    expect(refused.statusCode).toBe(429);
  });

  it('asks GitHub sign-ins for the code too', async () => {
    const github: FakeGitHub = await startFakeGitHub('Iv1.two-factor', 'github-secret');
    try {
      await test.close();
      test = await createTestApp({ GITHUB_OAUTH_BASE_URL: github.url, GITHUB_API_BASE_URL: github.url });
      await test.context.options.set('GitHubOAuthEnabled', 'true');
      await test.context.options.set('GitHubClientId', 'Iv1.two-factor');
      await test.context.options.set('GitHubClientSecret', 'github-secret');
      const alice = await createUserSession(test);
      await test.context.db
        .updateTable('users')
        .set({ github_id: '4242' })
        .where('id', '=', alice.user.id)
        .execute();
      const enrolled = await enrol(alice);

      const stateResponse = await test.app.inject({ url: '/api/oauth/state' });
      const state = envelope<string>(stateResponse).data;
      const stateCookie = stateResponse.cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
      const code = github.authorize({ id: 4242, login: 'alice-gh', name: null });
      const callback = await test.app.inject({
        url: `/api/oauth/github?code=${code}&state=${encodeURIComponent(state)}`,
        headers: { cookie: stateCookie },
      });
      expect(envelope(callback)).toMatchObject({ success: true, data: { require_2fa: true } });
      expect(callback.cookies.find((cookie) => cookie.name === 'gatehouse_session')).toBeUndefined();

      const signedIn = await secondStep(challengeCookie(callback), enrolled.nextCode());
      expect(envelope(signedIn)).toMatchObject({ success: true, data: { username: alice.user.username } });
    } finally {
      await github.close();
    }
  });
});

describe('turning off and new recovery codes', () => {
  it('turns off with the password and a code; then sign-in needs no code', async () => {
    const alice = await createUserSession(test);
    const enrolled = await enrol(alice);
    const noPassword = await post('/api/user/2fa/disable', alice.headers, { code: enrolled.nextCode() });
    expect(envelope(noPassword).message).toBe('password: enter your password to turn two-factor sign-in off');
    const wrongPassword = await post('/api/user/2fa/disable', alice.headers, {
      code: enrolled.nextCode(),
      password: 'not-my-password',
    });
    expect(envelope(wrongPassword).message).toBe('Wrong password');
    const wrongCode = await post('/api/user/2fa/disable', alice.headers, {
      code: '000000',
      password: PASSWORD,
    });
    expect(envelope(wrongCode).message).toBe(WRONG_CODE);
    expect((await status(alice)).enabled).toBe(true);

    const off = await post('/api/user/2fa/disable', alice.headers, {
      code: enrolled.recoveryCodes[0],
      password: PASSWORD,
    });
    expect(envelope(off)).toMatchObject({ success: true, message: 'Two-factor sign-in is off' });
    expect(await status(alice)).toMatchObject({ enabled: false, pending: false });
    await loginAs(test, alice.user.username, PASSWORD);
  });

  it('makes new recovery codes only with a code; the old ones stop working', async () => {
    const alice = await createUserSession(test);
    const enrolled = await enrol(alice);
    const refused = await post('/api/user/2fa/recovery_codes', alice.headers, { code: '000000' });
    expect(envelope(refused).message).toBe(WRONG_CODE);
    const renewed = envelope<RecoveryCodes>(
      await post('/api/user/2fa/recovery_codes', alice.headers, { code: enrolled.nextCode() }),
    );
    expect(renewed.data.recovery_codes).toHaveLength(10);
    expect(renewed.data.recovery_codes).not.toContain(enrolled.recoveryCodes[1]);

    const old = await secondStep(await startSignIn(alice.user.username), enrolled.recoveryCodes[1]!);
    expect(envelope(old).message).toBe(WRONG_CODE);
    const fresh = await secondStep(await startSignIn(alice.user.username), renewed.data.recovery_codes[0]!);
    expect(envelope(fresh).success).toBe(true);
  });
});

describe("root's reset and the option for admins", () => {
  it('lets only root reset another user’s two-factor sign-in', async () => {
    const alice = await createUserSession(test);
    await enrol(alice);
    const admin = await createUserSession(test, { role: Role.admin });
    const root = await createUserSession(test, { role: Role.root, username: 'rootish' });
    const url = `/api/user/${alice.user.id}/2fa`;

    const byAdmin = await test.app.inject({ method: 'DELETE', url, headers: admin.headers });
    expect(byAdmin.statusCode).toBe(403);
    expect((await status(alice)).enabled).toBe(true);

    const byRoot = await test.app.inject({ method: 'DELETE', url, headers: root.headers });
    expect(envelope(byRoot)).toMatchObject({ success: true });
    expect((await status(alice)).enabled).toBe(false);
    await loginAs(test, alice.user.username, PASSWORD);

    const again = await test.app.inject({ method: 'DELETE', url, headers: root.headers });
    expect(envelope(again).message).toBe('Two-factor sign-in is not on for this account');
    // Deleting a user removes its secret and recovery codes too.
    const bob = await createUserSession(test);
    await enrol(bob);
    const deleted = await post('/api/user/manage', root.headers, {
      username: bob.user.username,
      action: 'delete',
    });
    expect(envelope(deleted).success).toBe(true);
    for (const table of ['two_factor', 'two_factor_recovery_codes'] as const) {
      const rows = await test.context.db
        .selectFrom(table)
        .select('user_id')
        .where('user_id', '=', bob.user.id)
        .execute();
      expect(rows).toEqual([]);
    }

    const nobody = await test.app.inject({
      method: 'DELETE',
      url: '/api/user/99999/2fa',
      headers: root.headers,
    });
    expect(envelope(nobody).message).toBe('User does not exist');
  });

  it('with TwoFactorRequiredForAdmins, refuses admin calls until the admin enrols; enrolment stays open', async () => {
    const admin = await createUserSession(test, { role: Role.admin });
    const user = await createUserSession(test);
    expect((await test.app.inject({ url: '/api/channel/', headers: admin.headers })).statusCode).toBe(200);

    await test.context.options.set('TwoFactorRequiredForAdmins', 'true');
    const refused = await test.app.inject({ url: '/api/channel/', headers: admin.headers });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ success: false, message: TWO_FACTOR_ENROLMENT_REQUIRED_MESSAGE });
    // Ordinary users and the admin's own routes are not concerned.
    expect((await test.app.inject({ url: '/api/user/self', headers: admin.headers })).statusCode).toBe(200);
    expect((await test.app.inject({ url: '/api/token/', headers: user.headers })).statusCode).toBe(200);

    await enrol(admin);
    expect((await test.app.inject({ url: '/api/channel/', headers: admin.headers })).statusCode).toBe(200);
  });
});

for (const server of externalDatabaseServers) {
  const isReachable = await isListening(server.port);
  describe.skipIf(!isReachable)(`on ${server.name}`, () => {
    it('enrols, signs in with a code once, and takes a recovery code once', async () => {
      const database = await server.create('gatehouse_two_factor');
      await test.close();
      try {
        test = await createTestApp({ SQL_DSN: database.dsn });
        const alice = await createUserSession(test);
        const enrolled = await enrol(alice);
        const code = enrolled.nextCode();
        expect(envelope(await secondStep(await startSignIn(alice.user.username), code)).success).toBe(true);
        expect(envelope(await secondStep(await startSignIn(alice.user.username), code)).message).toBe(
          WRONG_CODE,
        );
        const recovery = enrolled.recoveryCodes[0]!;
        expect(envelope(await secondStep(await startSignIn(alice.user.username), recovery)).success).toBe(
          true,
        );
        expect(envelope(await secondStep(await startSignIn(alice.user.username), recovery)).message).toBe(
          WRONG_CODE,
        );
        expect(await status(alice)).toMatchObject({ enabled: true, recovery_codes_left: 9 });
      } finally {
        await test.close();
        await database.drop();
        // afterEach closes the app of every test.
        test = await createTestApp();
      }
    });
  });
}
