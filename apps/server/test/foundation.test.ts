import Fastify from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LogType, Role, UserStatus } from '@gatehouse/shared';
import { createGuards } from '../src/http/auth';
import { installErrorHandler } from '../src/http/error-handler';
import { createTestApp, createUserSession, envelope, loginAs, sessionCookie, type TestApp } from './test-app';

let test: TestApp;
beforeEach(async () => {
  test = await createTestApp({
    INITIAL_ROOT_TOKEN: 'sk-initialroottoken',
    INITIAL_ROOT_ACCESS_TOKEN: 'root-access-token',
  });
});
afterEach(async () => {
  await test.close();
});

const register = (payload: Record<string, unknown>) =>
  test.app.inject({ method: 'POST', url: '/api/user/register', payload });

describe('first start', () => {
  it('creates root / 123456 with role 100, its API key and its access token', async () => {
    const session = await loginAs(test, 'root', '123456');
    expect(session.user.role).toBe(Role.root);
    expect(session.user.status).toBe(UserStatus.enabled);
    expect(Number(session.user.quota)).toBeGreaterThan(0);
    const token = await test.context.db.selectFrom('tokens').selectAll().executeTakeFirstOrThrow();
    expect(token).toMatchObject({ key: 'initialroottoken', user_id: session.user.id, unlimited_quota: 1 });
    const self = await test.app.inject({
      url: '/api/user/self',
      headers: { authorization: 'root-access-token' },
    });
    expect(envelope<{ username: string }>(self).data.username).toBe('root');
  });
});

describe('GET /api/status', () => {
  it('answers every server-status field from the options, with the version', async () => {
    await test.context.options.set('SystemName', 'Acme AI');
    const body = envelope<Record<string, unknown>>(await test.app.inject({ url: '/api/status' }));
    expect(body.success).toBe(true);
    expect(body.data).toMatchObject({
      system_name: 'Acme AI',
      quota_per_unit: 500000,
      display_in_currency: true,
    });
    expect(body.data.version).toMatch(/^v\d+\.\d+\.\d+/);
    for (const field of [
      'logo',
      'footer_html',
      'chat_link',
      'top_up_link',
      'server_address',
      'email_verification',
      'turnstile_check',
      'turnstile_site_key',
      'github_oauth',
      'github_client_id',
      'wechat_login',
      'wechat_qrcode',
      'lark_client_id',
    ]) {
      expect(body.data).toHaveProperty(field);
    }
  });

  it('serves notice, about and home page content', async () => {
    await test.context.options.set('Notice', 'maintenance at noon');
    const body = envelope<string>(await test.app.inject({ url: '/api/notice' }));
    expect(body.data).toBe('maintenance at noon');
    expect(envelope(await test.app.inject({ url: '/api/about' })).success).toBe(true);
    expect(envelope(await test.app.inject({ url: '/api/home_page_content' })).success).toBe(true);
  });
});

describe('login', () => {
  it('logs in with the right password, never returning the hash', async () => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { username: 'root', password: '123456' },
    });
    const body = envelope<Record<string, unknown>>(response);
    expect(body).toMatchObject({ success: true, message: 'Login successful!' });
    expect(body.data).not.toHaveProperty('password');
    expect(body.data).not.toHaveProperty('access_token');
    const cookie = response.cookies.find((candidate) => candidate.name === 'gatehouse_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
  });

  it('refuses a wrong password and an unknown user with the same message', async () => {
    const wrong = envelope(
      await test.app.inject({
        method: 'POST',
        url: '/api/user/login',
        payload: { username: 'root', password: 'nope' },
      }),
    );
    const unknown = envelope(
      await test.app.inject({
        method: 'POST',
        url: '/api/user/login',
        payload: { username: 'ghost', password: 'nope' },
      }),
    );
    expect(wrong).toMatchObject({ success: false, message: 'Wrong username or password' });
    expect(unknown.message).toBe(wrong.message);
  });

  it('signs the owner of an e-mail address in, also when another account took it as its username', async () => {
    // Usernames may hold '@': someone who registered 'bob@mail.io' as a username first must not lock the
    // address's owner out of signing in with it.
    const squatter = await createUserSession(test, { username: 'bob@mail.io', password: 'squatter-pass' });
    const owner = await createUserSession(test, { username: 'bob', password: 'owner-password' });
    await test.context.db
      .updateTable('users')
      .set({ email: 'bob@mail.io' })
      .where('id', '=', owner.user.id)
      .execute();
    const signIn = async (password: string) =>
      envelope<{ id: number }>(
        await test.app.inject({
          method: 'POST',
          url: '/api/user/login',
          payload: { username: 'bob@mail.io', password },
        }),
      );
    expect((await signIn('owner-password')).data.id).toBe(owner.user.id);
    expect((await signIn('squatter-pass')).data.id).toBe(squatter.user.id);
    expect(await signIn('neither-pass')).toMatchObject({
      success: false,
      message: 'Wrong username or password',
    });
  });

  it('refuses empty fields and a banned user', async () => {
    expect(
      envelope(
        await test.app.inject({
          method: 'POST',
          url: '/api/user/login',
          payload: { username: '', password: '' },
        }),
      ).success,
    ).toBe(false);
    const session = await createUserSession(test);
    await test.context.db
      .updateTable('users')
      .set({ status: UserStatus.disabled })
      .where('id', '=', session.user.id)
      .execute();
    const body = envelope(
      await test.app.inject({
        method: 'POST',
        url: '/api/user/login',
        payload: { username: session.user.username, password: 'password123' },
      }),
    );
    expect(body).toMatchObject({ success: false, message: 'This user has been banned' });
    // the session it already had stops working too
    expect((await test.app.inject({ url: '/api/user/self', headers: session.headers })).statusCode).toBe(401);
  });

  it('honours PasswordLoginEnabled', async () => {
    await test.context.options.set('PasswordLoginEnabled', 'false');
    const body = envelope(
      await test.app.inject({
        method: 'POST',
        url: '/api/user/login',
        payload: { username: 'root', password: '123456' },
      }),
    );
    expect(body.success).toBe(false);
    expect(body.message).toMatch(/password login/);
  });

  it('logs out by clearing the cookie', async () => {
    const response = await test.app.inject({ url: '/api/user/logout' });
    expect(envelope(response).success).toBe(true);
    expect(response.cookies.find((candidate) => candidate.name === 'gatehouse_session')?.value).toBe('');
  });
});

describe('register', () => {
  it('creates a user with QuotaForNewUser who can then log in', async () => {
    await test.context.options.set('QuotaForNewUser', '1000');
    const body = envelope(
      await register({ username: 'alice', password: 'password1', password2: 'password1' }),
    );
    expect(body).toMatchObject({ success: true, message: 'Registration successful!' });
    const session = await loginAs(test, 'alice', 'password1');
    expect(Number(session.user.quota)).toBe(1000);
    expect(session.user.role).toBe(Role.common);
  });

  it.each([
    [{ username: '', password: 'password1' }, 'Username is required'],
    [{ username: 'thirteenchars', password: 'password1' }, 'at most 12'],
    [{ username: 'bob', password: 'short' }, 'Password length must not be less than 8!'],
    [{ username: 'bob', password: 'a'.repeat(21) }, 'at most 20'],
    [
      { username: 'bob', password: 'password1', password2: 'password2' },
      'The two passwords entered do not match',
    ],
    [{ username: 'root', password: 'password1' }, 'Username is already taken'],
  ])('refuses %o', async (payload, message) => {
    const body = envelope(await register(payload));
    expect(body.success).toBe(false);
    expect(body.message).toContain(message);
  });

  it('honours RegisterEnabled and PasswordRegisterEnabled', async () => {
    await test.context.options.set('RegisterEnabled', 'false');
    expect(envelope(await register({ username: 'carol', password: 'password1' })).success).toBe(false);
    await test.context.options.set('RegisterEnabled', 'true');
    await test.context.options.set('PasswordRegisterEnabled', 'false');
    expect(envelope(await register({ username: 'carol', password: 'password1' })).success).toBe(false);
  });

  it('rewards inviter and invitee for an aff code and logs both', async () => {
    await test.context.options.set('QuotaForInviter', '300');
    await test.context.options.set('QuotaForInvitee', '200');
    const inviter = await createUserSession(test, { quota: 0 });
    await register({ username: 'invitee', password: 'password1', aff_code: inviter.user.aff_code });
    const users = await test.context.db
      .selectFrom('users')
      .select(['username', 'quota', 'inviter_id'])
      .execute();
    expect(users.find((user) => user.username === inviter.user.username)?.quota).toBe(300);
    expect(users.find((user) => user.username === 'invitee')).toMatchObject({
      quota: 200,
      inviter_id: inviter.user.id,
    });
    const logs = await test.context.db
      .selectFrom('logs')
      .selectAll()
      .where('type', '=', LogType.system)
      .execute();
    expect(logs).toHaveLength(2);
  });

  it('requires a valid one-time e-mail code when verification is on', async () => {
    await test.context.options.set('EmailVerificationEnabled', 'true');
    expect(envelope(await register({ username: 'dave', password: 'password1' })).success).toBe(false);
    const code = await test.context.verificationCodes.issue('register', 'dave@example.com');
    const payload = { username: 'dave', password: 'password1', email: 'dave@example.com' };
    expect(envelope(await register({ ...payload, verification_code: 'WRONG1' })).success).toBe(false);
    expect(envelope(await register({ ...payload, verification_code: code })).success).toBe(true);
    expect(envelope(await register({ ...payload, username: 'dave2', verification_code: code })).success).toBe(
      false,
    );
  });
});

describe('self', () => {
  it('changes display name and password but never quota, role or group', async () => {
    const session = await createUserSession(test, { quota: 5 });
    const response = await test.app.inject({
      method: 'PUT',
      url: '/api/user/self',
      headers: session.headers,
      payload: { display_name: 'New Name', password: 'newpassword', quota: 999999, role: 100, group: 'vip' },
    });
    expect(envelope(response)).toMatchObject({ success: true, message: 'User info updated successfully!' });
    const row = await test.context.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', session.user.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ display_name: 'New Name', quota: 5, role: Role.common, group: 'default' });
    // the old session ended, the renewed cookie and the new password work
    expect((await test.app.inject({ url: '/api/user/self', headers: session.headers })).statusCode).toBe(401);
    expect(
      (await test.app.inject({ url: '/api/user/self', headers: { cookie: sessionCookie(response) } }))
        .statusCode,
    ).toBe(200);
    await loginAs(test, session.user.username, 'newpassword');
  });

  it('keeps the password when the field is blank and refuses a short one', async () => {
    const session = await createUserSession(test);
    await test.app.inject({
      method: 'PUT',
      url: '/api/user/self',
      headers: session.headers,
      payload: { display_name: 'X', password: '' },
    });
    await loginAs(test, session.user.username, 'password123');
    const body = envelope(
      await test.app.inject({
        method: 'PUT',
        url: '/api/user/self',
        headers: session.headers,
        payload: { password: 'short' },
      }),
    );
    expect(body.success).toBe(false);
  });

  it('issues a new system access token that authenticates like a session, also with Bearer', async () => {
    const session = await createUserSession(test);
    const accessToken = envelope<string>(
      await test.app.inject({ url: '/api/user/token', headers: session.headers }),
    ).data;
    expect(accessToken).toMatch(/^[0-9a-f]{32}$/);
    for (const authorization of [accessToken, `Bearer ${accessToken}`]) {
      const self = envelope<{ id: number }>(
        await test.app.inject({ url: '/api/user/self', headers: { authorization } }),
      );
      expect(self.data.id).toBe(session.user.id);
    }
    const second = envelope<string>(
      await test.app.inject({ url: '/api/user/token', headers: session.headers }),
    ).data;
    expect(
      (await test.app.inject({ url: '/api/user/self', headers: { authorization: accessToken } })).statusCode,
    ).toBe(401);
    expect(
      (await test.app.inject({ url: '/api/user/self', headers: { authorization: second } })).statusCode,
    ).toBe(200);
  });
});

describe('HTTP rules', () => {
  it('answers 401 without a session, with a forged cookie, or with an unknown token', async () => {
    expect((await test.app.inject({ url: '/api/user/self' })).statusCode).toBe(401);
    expect(
      (await test.app.inject({ url: '/api/user/self', headers: { cookie: 'gatehouse_session=1.0' } }))
        .statusCode,
    ).toBe(401);
    expect(
      (await test.app.inject({ url: '/api/user/self', headers: { authorization: 'not-a-token' } }))
        .statusCode,
    ).toBe(401);
  });

  it('answers 404 JSON for unknown /api paths and accepts trailing slashes', async () => {
    const missing = await test.app.inject({ url: '/api/does-not-exist' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ success: false });
    expect(envelope(await test.app.inject({ url: '/api/status/' })).success).toBe(true);
  });

  it('answers 400 for a malformed JSON body without crashing', async () => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false });
  });

  it('answers 403 to a valid login with too low a role and 500 without internals on a fault', async () => {
    const guarded = Fastify();
    await guarded.register(fastifyCookie, { secret: test.context.config.sessionSecret });
    installErrorHandler(guarded);
    const guards = createGuards(test.context);
    guarded.get('/admin-only', { preHandler: guards.admin }, async () => ({ success: true }));
    guarded.get('/broken', async () => {
      throw new Error('secret database detail');
    });
    const session = await createUserSession(test);
    expect((await guarded.inject({ url: '/admin-only', headers: session.headers })).statusCode).toBe(403);
    const admin = await createUserSession(test, { role: Role.admin });
    expect((await guarded.inject({ url: '/admin-only', headers: admin.headers })).statusCode).toBe(200);
    const broken = await guarded.inject({ url: '/broken' });
    expect(broken.statusCode).toBe(500);
    expect(broken.body).not.toContain('secret database detail');
    await guarded.close();
  });
});
