import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Role } from '@gatehouse/shared';
import { externalDatabaseServers, isListening } from './support/external-databases';
import { startFakeGitHub, type FakeGitHub } from './support/fake-github';
import { SIGN_IN_EXPIRED, WRONG_CODE, challengeCookie, twoFactorSteps } from './support/two-factor-steps';
import { createTestApp, createUserSession, envelope, sessionCookie, type TestApp } from './test-app';

/**
 * Signing in with a second factor: the code after the password (or GitHub), recovery codes, the challenge's
 * limits, and the same on PostgreSQL and MySQL. Enrolling and the account's settings are in
 * two-factor.test.ts.
 */
let test: TestApp;
beforeEach(async () => {
  test = await createTestApp();
});
afterEach(async () => {
  await test.close();
});

const { enrol, passwordLogin, secondStep, startSignIn, status } = twoFactorSteps(() => test);

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
