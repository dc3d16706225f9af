import { Secret, TOTP } from 'otpauth';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Role,
  TWO_FACTOR_ENROLMENT_REQUIRED_MESSAGE,
  type RecoveryCodes,
  type TwoFactorEnrolment,
} from '@gatehouse/shared';
import { openTwoFactorSecret, sealTwoFactorSecret } from '../src/auth/two-factor-secret';
import { loadConfig } from '../src/config/config';
import { PASSWORD, WRONG_CODE, twoFactorSteps } from './support/two-factor-steps';
import { createTestApp, createUserSession, envelope, loginAs, type TestApp } from './test-app';

/**
 * Two-factor sign-in, the account's side: enrolling, turning it off, new recovery codes, root's reset and the
 * option that makes admins enrol. Signing in with a code is in two-factor-sign-in.test.ts.
 */
let test: TestApp;
beforeEach(async () => {
  test = await createTestApp();
});
afterEach(async () => {
  await test.close();
});

const { enrol, passwordLogin, post, secondStep, startSignIn, status } = twoFactorSteps(() => test);

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

  it('turns off with a code alone for accounts made by an external sign-in, whose password nobody saw', async () => {
    for (const identity of [{ github_id: '4242' }, { oidc_id: 'https://idp.example 7f3a' }]) {
      const member = await createUserSession(test);
      await test.context.db.updateTable('users').set(identity).where('id', '=', member.user.id).execute();
      const enrolled = await enrol(member);
      expect((await status(member)).requires_password).toBe(false);
      const off = await post('/api/user/2fa/disable', member.headers, { code: enrolled.nextCode() });
      expect(envelope(off)).toMatchObject({ success: true, message: 'Two-factor sign-in is off' });
    }
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
