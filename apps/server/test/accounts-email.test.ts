import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createUserSession, envelope, loginAs, type TestApp, createTestApp } from './test-app';
import { startSmtpCatcher, type SmtpCatcher } from './support/smtp-catcher';
import { SERVER_ADDRESS_MISSING } from '../src/auth/public-address';

const SMTP_ACCOUNT = 'mailer@gatehouse.test';
const SMTP_TOKEN = 'smtp-app-password';

let smtp: SmtpCatcher;
let test: TestApp;

beforeAll(async () => {
  smtp = await startSmtpCatcher({ account: SMTP_ACCOUNT, password: SMTP_TOKEN });
});
afterAll(async () => {
  await smtp.close();
});

beforeEach(async () => {
  test = await createTestApp();
  const { options } = test.context;
  await options.set('SMTPServer', '127.0.0.1');
  await options.set('SMTPPort', String(smtp.port));
  await options.set('SMTPAccount', SMTP_ACCOUNT);
  await options.set('SMTPToken', SMTP_TOKEN);
  await options.set('SMTPFrom', 'noreply@gatehouse.test');
  await options.set('ServerAddress', 'https://gate.example.com');
  smtp.isRefusing = false;
  smtp.forget();
});
afterEach(async () => {
  await test.close();
});

const get = (url: string, headers: Record<string, string> = {}) => test.app.inject({ url, headers });
const requestCode = (email: string) => get(`/api/verification?email=${encodeURIComponent(email)}`);
const register = (payload: Record<string, unknown>) =>
  test.app.inject({ method: 'POST', url: '/api/user/register', payload });

function codeIn(text: string): string {
  const match = /verification code is: (\S+)/.exec(text);
  if (!match?.[1]) throw new Error(`no code in mail: ${text}`);
  return match[1];
}

async function mailedCode(email: string): Promise<string> {
  const body = envelope(await requestCode(email));
  expect(body).toMatchObject({
    success: true,
    message: 'Verification code sent successfully, please check your mailbox!',
  });
  // The address is stored and mailed lower-case.
  return codeIn((await smtp.nextMailTo(email.toLowerCase())).text);
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('GET /api/verification and registration with EmailVerificationEnabled', () => {
  beforeEach(async () => {
    await test.context.options.set('EmailVerificationEnabled', 'true');
  });

  it('mails a 6-character code over authenticated SMTP; the code registers once', async () => {
    const code = await mailedCode('Dana@Example.com');
    expect(code).toMatch(/^[0-9A-Z]{6}$/);
    const mail = smtp.messages.at(-1);
    expect(mail?.auth).toEqual({ username: SMTP_ACCOUNT, password: SMTP_TOKEN });
    expect(mail?.from).toBe('noreply@gatehouse.test');
    expect(mail?.subject).toBe('Gatehouse e-mail verification');
    expect(mail?.html).toContain(code);

    const payload = { username: 'dana', password: 'password123', email: 'dana@example.com' };
    expect(envelope(await register({ ...payload, verification_code: code }))).toMatchObject({
      success: true,
      message: 'Registration successful!',
    });
    const dana = await loginAs(test, 'dana', 'password123');
    expect(dana.user.email).toBe('dana@example.com');

    const again = envelope(await register({ ...payload, username: 'dana2', verification_code: code }));
    expect(again).toMatchObject({ success: false, message: 'The verification code is wrong or has expired' });
  });

  it('refuses registration without a code or with a wrong one, and a wrong guess does not spend the code', async () => {
    const code = await mailedCode('erin@example.com');
    const payload = { username: 'erin', password: 'password123', email: 'erin@example.com' };
    expect(envelope(await register(payload)).message).toBe(
      'Please enter your e-mail address and verification code',
    );
    expect(envelope(await register({ ...payload, verification_code: 'ZZZZZZ' })).success).toBe(false);
    expect(envelope(await register({ ...payload, verification_code: code })).success).toBe(true);
  });

  it('keeps the code when the username is taken, so the user can pick another name', async () => {
    await createUserSession(test, { username: 'taken' });
    const code = await mailedCode('fay@example.com');
    const payload = { password: 'password123', email: 'fay@example.com', verification_code: code };
    expect(envelope(await register({ ...payload, username: 'taken' })).message).toBe(
      'Username is already taken',
    );
    expect(envelope(await register({ ...payload, username: 'fay' })).success).toBe(true);
  });

  it('answers the same for a used and an unused address, and refuses a used one only once the code proves ownership', async () => {
    const owner = await createUserSession(test);
    await test.context.db
      .updateTable('users')
      .set({ email: 'owner@example.com' })
      .where('id', '=', owner.user.id)
      .execute();
    const used = envelope(await requestCode('owner@example.com'));
    const unused = envelope(await requestCode('nobody@example.com'));
    expect(used).toEqual(unused);

    const code = codeIn((await smtp.nextMailTo('owner@example.com')).text);
    const refused = envelope(
      await register({
        username: 'copycat',
        password: 'password123',
        email: 'owner@example.com',
        verification_code: code,
      }),
    );
    expect(refused).toMatchObject({
      success: false,
      message: 'This e-mail address is already bound to another account',
    });
    const copies = await test.context.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'copycat')
      .execute();
    expect(copies).toHaveLength(0);
  });

  it('enforces the domain whitelist for codes and registration', async () => {
    await test.context.options.set('EmailDomainRestrictionEnabled', 'true');
    await test.context.options.set('EmailDomainWhitelist', 'example.com, corp.example');
    const before = smtp.messages.length;
    const refused = envelope(await requestCode('mallory@elsewhere.org'));
    expect(refused.success).toBe(false);
    expect(refused.message).toContain('example.com, corp.example');
    expect(smtp.messages.length).toBe(before);

    // Even a valid code (say, issued before the whitelist was switched on) does not get past it.
    const code = await test.context.verificationCodes.issue('register', 'mallory@elsewhere.org');
    const registration = envelope(
      await register({
        username: 'mallory',
        password: 'password123',
        email: 'mallory@elsewhere.org',
        verification_code: code,
      }),
    );
    expect(registration.message).toContain('example.com, corp.example');

    expect(envelope(await requestCode('grace@corp.example')).success).toBe(true);
  });

  it('refuses a malformed address before sending anything', async () => {
    const before = smtp.messages.length;
    const body = envelope(await requestCode('not-an-address'));
    expect(body).toMatchObject({ success: false, message: 'Please enter a valid e-mail address' });
    expect(smtp.messages.length).toBe(before);
  });
});

describe('mail server trouble', () => {
  it('says clearly when SMTP is not configured', async () => {
    await test.context.options.set('SMTPServer', '');
    const body = envelope(await requestCode('hal@example.com'));
    expect(body).toMatchObject({
      success: false,
      message: 'E-mail sending is not configured; please contact the administrator',
    });
  });

  it('says clearly when the mail server cannot be reached', async () => {
    await test.context.options.set('SMTPPort', String(await closedPort()));
    const body = envelope(await requestCode('hal@example.com'));
    expect(body).toMatchObject({
      success: false,
      message:
        'Failed to send the e-mail: the mail server could not be reached; please contact the administrator',
    });
  });

  it('says when the SMTP login is refused', async () => {
    await test.context.options.set('SMTPToken', 'wrong-password');
    const body = envelope(await requestCode('hal@example.com'));
    expect(body.message).toBe(
      'Failed to send the e-mail: the mail server refused the SMTP account or token; please contact the administrator',
    );
  });

  it('withdraws a code whose mail the server refused, so nothing is left half-done', async () => {
    await test.context.options.set('EmailVerificationEnabled', 'true');
    smtp.isRefusing = true;
    const body = envelope(await requestCode('ivy@example.com'));
    expect(body).toMatchObject({ success: false });
    expect(body.message).toContain('Failed to send the e-mail');
    // The server read the message before refusing it, so the code is known here; it must not work.
    const code = codeIn(smtp.refused.at(-1)?.text ?? '');
    const registration = envelope(
      await register({
        username: 'ivy',
        password: 'password123',
        email: 'ivy@example.com',
        verification_code: code,
      }),
    );
    expect(registration.message).toBe('The verification code is wrong or has expired');
  });
});

describe('password reset', () => {
  let owner: Awaited<ReturnType<typeof createUserSession>>;
  beforeEach(async () => {
    owner = await createUserSession(test, { username: 'judy', password: 'old-password' });
    await test.context.db
      .updateTable('users')
      .set({ email: 'judy@example.com' })
      .where('id', '=', owner.user.id)
      .execute();
  });

  const requestReset = (email: string) => get(`/api/reset_password?email=${encodeURIComponent(email)}`);
  const confirmReset = (payload: Record<string, unknown>) =>
    test.app.inject({ method: 'POST', url: '/api/user/reset', payload });

  async function mailedLink(email: string): Promise<URL> {
    expect(envelope(await requestReset(email))).toMatchObject({
      success: true,
      message: 'Reset email sent successfully, please check your mailbox!',
    });
    const mail = await smtp.nextMailTo(email.toLowerCase());
    const link = /(https?:\/\/\S+)/.exec(mail.text)?.[1];
    if (!link) throw new Error(`no link in mail: ${mail.text}`);
    return new URL(link);
  }

  it('mails a one-time link; the new password works, the old one and old sessions do not', async () => {
    const link = await mailedLink('JUDY@example.com');
    expect(`${link.origin}${link.pathname}`).toBe('https://gate.example.com/user/reset');
    expect(link.searchParams.get('email')).toBe('judy@example.com');
    const token = link.searchParams.get('token') ?? '';
    expect(token.length).toBeGreaterThanOrEqual(32);

    const reset = envelope<string>(await confirmReset({ email: 'judy@example.com', token }));
    expect(reset.success).toBe(true);
    expect(reset.data).toMatch(/^\S{12}$/);

    expect((await get('/api/user/self', owner.headers)).statusCode).toBe(401);
    await expect(loginAs(test, 'judy', 'old-password')).rejects.toThrow('Wrong username or password');
    await loginAs(test, 'judy', reset.data);

    const reused = envelope(await confirmReset({ email: 'judy@example.com', token }));
    expect(reused).toMatchObject({ success: false, message: 'The reset link is invalid or has expired' });
  });

  it('refuses a forged token and a token for another address', async () => {
    const link = await mailedLink('judy@example.com');
    const token = link.searchParams.get('token') ?? '';
    const forged = envelope(await confirmReset({ email: 'judy@example.com', token: 'x'.repeat(32) }));
    expect(forged.success).toBe(false);
    const elsewhere = envelope(await confirmReset({ email: 'other@example.com', token }));
    expect(elsewhere.success).toBe(false);
    await loginAs(test, 'judy', 'old-password');
  });

  it('answers an unknown address like a known one and mails it no link', async () => {
    const answer = envelope(await requestReset('stranger@example.com'));
    expect(answer).toEqual(envelope(await requestReset('judy@example.com')));
    const mail = await smtp.nextMailTo('stranger@example.com');
    expect(mail.text).toContain('no account uses it');
    expect(mail.text).not.toMatch(/https?:\/\//);
  });

  it('builds the link from ServerAddress only, never from the Host or forwarded headers', async () => {
    const response = await test.app.inject({
      url: '/api/reset_password?email=judy%40example.com',
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' },
    });
    expect(envelope(response).success).toBe(true);
    const mail = await smtp.nextMailTo('judy@example.com');
    expect(mail.text).toContain('https://gate.example.com/user/reset?email=judy%40example.com&token=');
    expect(mail.text).not.toContain('evil.example');
  });

  it('refuses while ServerAddress is empty, telling the admin to set it, and mails nothing', async () => {
    await test.context.options.set('ServerAddress', '');
    const before = smtp.messages.length;
    for (const email of ['judy@example.com', 'stranger@example.com']) {
      const response = await test.app.inject({
        url: `/api/reset_password?email=${encodeURIComponent(email)}`,
        headers: { host: 'evil.example' },
      });
      expect(envelope(response)).toEqual({ success: false, message: SERVER_ADDRESS_MISSING });
    }
    expect(SERVER_ADDRESS_MISSING).toMatch(/Server address .* System settings/);
    expect(smtp.messages.length).toBe(before);
  });
});

describe('GET /api/oauth/email/bind', () => {
  it('binds a proven address to the signed-in user', async () => {
    const kim = await createUserSession(test);
    const code = await mailedCode('kim@example.com');
    const bound = envelope(
      await get(`/api/oauth/email/bind?email=kim%40example.com&code=${code}`, kim.headers),
    );
    expect(bound).toMatchObject({ success: true, message: 'Email account bound successfully!' });
    const self = envelope<{ email: string }>(await get('/api/user/self', kim.headers));
    expect(self.data.email).toBe('kim@example.com');
  });

  it('refuses an address bound to someone else, a wrong code, and visitors', async () => {
    const holder = await createUserSession(test);
    await test.context.db
      .updateTable('users')
      .set({ email: 'held@example.com' })
      .where('id', '=', holder.user.id)
      .execute();
    const lee = await createUserSession(test);
    expect(
      envelope(await get('/api/oauth/email/bind?email=held%40example.com&code=AAAAAA', lee.headers)).message,
    ).toBe('The verification code is wrong or has expired');
    const code = await mailedCode('held@example.com');
    const refused = envelope(
      await get(`/api/oauth/email/bind?email=held%40example.com&code=${code}`, lee.headers),
    );
    expect(refused).toMatchObject({
      success: false,
      message: 'This e-mail address is already bound to another account',
    });
    expect((await get('/api/oauth/email/bind?email=held%40example.com&code=AAAAAA')).statusCode).toBe(401);
  });
});
