import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UserStatus } from '@gatehouse/shared';
import { readBody } from './support/stand-in-server';
import { startFakeTurnstile, type FakeTurnstile } from './support/fake-turnstile';
import { startFakeWeChat, type FakeWeChat } from './support/fake-wechat';
import { startSmtpCatcher, type SmtpCatcher } from './support/smtp-catcher';
import { createTestApp, createUserSession, envelope, sessionCookie, type TestApp } from './test-app';

const WECHAT_TOKEN = 'wechat-server-token';
const TURNSTILE_SECRET = '0x4AAAAAAA-turnstile-secret';

let wechat: FakeWeChat;
let turnstile: FakeTurnstile;
let smtp: SmtpCatcher;
let test: TestApp;

beforeAll(async () => {
  wechat = await startFakeWeChat(WECHAT_TOKEN);
  turnstile = await startFakeTurnstile(TURNSTILE_SECRET);
  smtp = await startSmtpCatcher();
});
afterAll(async () => {
  await wechat.close();
  await turnstile.close();
  await smtp.close();
});

beforeEach(async () => {
  test = await createTestApp({ TURNSTILE_VERIFY_URL: `${turnstile.url}/turnstile/v0/siteverify` });
  const { options } = test.context;
  await options.set('WeChatAuthEnabled', 'true');
  await options.set('WeChatServerAddress', `${wechat.url}/`);
  await options.set('WeChatServerToken', WECHAT_TOKEN);
  await options.set('SMTPServer', '127.0.0.1');
  await options.set('SMTPPort', String(smtp.port));
  await options.set('SMTPFrom', 'noreply@gatehouse.test');
  await options.set('ServerAddress', 'https://gate.example.com');
});
afterEach(async () => {
  await test.close();
});

const get = (url: string, headers: Record<string, string> = {}) => test.app.inject({ url, headers });

describe('WeChat sign-in', () => {
  it('asks the WeChat server with its token, creates a wechat_ user, and signs the same user in next time', async () => {
    const response = await get(`/api/oauth/wechat?code=${wechat.issueCode('o6_bmjrPTlm6_2sgVt7hMZOPfL2M')}`);
    const body = envelope<{ id: number; username: string; wechat_id: string; display_name: string }>(
      response,
    );
    expect(body).toMatchObject({ success: true, message: 'Login successful!' });
    expect(body.data.username).toMatch(/^wechat_\d{5}$/);
    expect(body.data).toMatchObject({
      wechat_id: 'o6_bmjrPTlm6_2sgVt7hMZOPfL2M',
      display_name: 'WeChat User',
    });
    const asked = wechat.requests.at(-1);
    expect(asked?.path).toBe('/api/wechat/user');
    expect(asked?.headers.authorization).toBe(WECHAT_TOKEN);

    const self = await get('/api/user/self', { cookie: sessionCookie(response) });
    expect(envelope<{ id: number }>(self).data.id).toBe(body.data.id);

    const again = envelope<{ id: number }>(
      await get(`/api/oauth/wechat?code=${wechat.issueCode('o6_bmjrPTlm6_2sgVt7hMZOPfL2M')}`),
    );
    expect(again.data.id).toBe(body.data.id);
  });

  it("passes the WeChat server's refusal on and refuses when WeChat sign-in is off", async () => {
    expect(envelope(await get('/api/oauth/wechat?code=000000'))).toMatchObject({
      success: false,
      message: 'Invalid or expired verification code',
    });
    expect(envelope(await get('/api/oauth/wechat?code=')).message).toBe('Please enter the verification code');

    await test.context.options.set('WeChatServerToken', 'stale-token');
    expect(envelope(await get(`/api/oauth/wechat?code=${wechat.issueCode('someone')}`)).message).toBe(
      'No permission: the token is invalid',
    );

    await test.context.options.set('WeChatAuthEnabled', 'false');
    expect(envelope(await get(`/api/oauth/wechat?code=${wechat.issueCode('someone')}`)).message).toBe(
      'The administrator has not enabled sign-in and registration with WeChat',
    );
  });

  it('refuses a banned user', async () => {
    const banned = await createUserSession(test);
    await test.context.db
      .updateTable('users')
      .set({ wechat_id: 'banned-openid', status: UserStatus.disabled })
      .where('id', '=', banned.user.id)
      .execute();
    const response = await get(`/api/oauth/wechat?code=${wechat.issueCode('banned-openid')}`);
    expect(envelope(response)).toMatchObject({ success: false, message: 'This user has been banned' });
    expect(response.cookies.find((cookie) => cookie.name === 'gatehouse_session')).toBeUndefined();
  });
});

describe('WeChat binding', () => {
  it('binds for the signed-in user, refuses an account bound elsewhere, and visitors', async () => {
    const kim = await createUserSession(test);
    const bound = envelope<{ wechat_id: string }>(
      await get(`/api/oauth/wechat/bind?code=${wechat.issueCode('kim-openid')}`, kim.headers),
    );
    expect(bound).toMatchObject({ success: true, message: 'WeChat account bound successfully!' });
    expect(bound.data.wechat_id).toBe('kim-openid');

    const lee = await createUserSession(test);
    const refused = envelope(
      await get(`/api/oauth/wechat/bind?code=${wechat.issueCode('kim-openid')}`, lee.headers),
    );
    expect(refused).toMatchObject({
      success: false,
      message: 'This WeChat account is already bound to another user',
    });

    expect((await get(`/api/oauth/wechat/bind?code=${wechat.issueCode('x')}`)).statusCode).toBe(401);
  });
});

describe('Turnstile', () => {
  beforeEach(async () => {
    await test.context.options.set('TurnstileCheckEnabled', 'true');
    await test.context.options.set('TurnstileSecretKey', TURNSTILE_SECRET);
  });

  const register = (query: string) =>
    test.app.inject({
      method: 'POST',
      url: `/api/user/register${query}`,
      payload: { username: 'nina', password: 'password123' },
      remoteAddress: '203.0.113.7',
    });

  it('refuses register, verification and reset_password without a token', async () => {
    const before = smtp.messages.length;
    const missing = 'Turnstile token is empty; please complete the human check';
    expect(envelope(await register('')).message).toBe(missing);
    expect(envelope(await get('/api/verification?email=nina%40example.com')).message).toBe(missing);
    expect(envelope(await get('/api/reset_password?email=nina%40example.com')).message).toBe(missing);
    expect(smtp.messages.length).toBe(before);
  });

  it('verifies the token with the secret and the client address, once', async () => {
    const token = turnstile.passToken();
    expect(envelope(await register(`?turnstile=${encodeURIComponent(token)}`))).toMatchObject({
      success: true,
      message: 'Registration successful!',
    });
    const check = turnstile.requests.at(-1);
    expect(check?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(readBody(check!)).toEqual({ secret: TURNSTILE_SECRET, response: token, remoteip: '203.0.113.7' });

    // A spent or made-up token is refused.
    const refused = envelope(await get(`/api/verification?email=nina%40example.com&turnstile=${token}`));
    expect(refused).toMatchObject({
      success: false,
      message: 'Turnstile check failed, please refresh the page and retry!',
    });
    const sent = envelope(
      await get(
        `/api/verification?email=nina%40example.com&turnstile=${encodeURIComponent(turnstile.passToken())}`,
      ),
    );
    expect(sent.success).toBe(true);
    expect(await smtp.nextMailTo('nina@example.com')).toBeTruthy();
    const reset = envelope(
      await get(
        `/api/reset_password?email=nina%40example.com&turnstile=${encodeURIComponent(turnstile.passToken())}`,
      ),
    );
    expect(reset.message).toBe('Reset email sent successfully, please check your mailbox!');
  });

  it('refuses clearly when the secret is wrong or siteverify cannot be reached', async () => {
    await test.context.options.set('TurnstileSecretKey', 'wrong-secret');
    expect(envelope(await register(`?turnstile=${turnstile.passToken()}`)).message).toBe(
      'Turnstile check failed, please refresh the page and retry!',
    );
    const offline = await createTestApp({ TURNSTILE_VERIFY_URL: 'http://127.0.0.1:9/siteverify' });
    try {
      await offline.context.options.set('TurnstileCheckEnabled', 'true');
      await offline.context.options.set('TurnstileSecretKey', TURNSTILE_SECRET);
      const response = await offline.app.inject({ url: '/api/verification?email=a%40b.co&turnstile=token' });
      expect(envelope(response).message).toBe(
        'The human check could not be completed right now; please retry later',
      );
    } finally {
      await offline.close();
    }
  });
});
