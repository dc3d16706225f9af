import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LatestRelease, OptionEntry, User } from '@gatehouse/shared';
import { fetchLatestRelease } from '../src/options/latest-release';
import { optionDefinitions } from '../src/options/option-defaults';
import { VERSION } from '../src/status/version';
import { createTestApp, envelope, loginAs, type Session, type TestApp } from './test-app';

let test: TestApp;
let root: Session;
beforeEach(async () => {
  test = await createTestApp();
  root = await loginAs(test, 'root', '123456');
});
afterEach(async () => {
  await test.close();
});

const put = (key: string, value: unknown) =>
  test.app.inject({ method: 'PUT', url: '/api/option/', payload: { key, value }, headers: root.headers });

const readOptions = async () =>
  Object.fromEntries(
    envelope<OptionEntry[]>(await test.app.inject({ url: '/api/option/', headers: root.headers })).data.map(
      (entry) => [entry.key, entry.value],
    ),
  );

const status = async () =>
  envelope<Record<string, unknown>>(await test.app.inject({ url: '/api/status' })).data;

describe('GET /api/option/', () => {
  it('answers every option as text but never a secret', async () => {
    await put('GitHubClientSecret', 'very-secret');
    await put('SMTPToken', 'smtp-password');
    const options = await readOptions();
    expect(options).toMatchObject({
      SystemName: 'Gatehouse',
      PasswordLoginEnabled: 'true',
      QuotaPerUnit: '500000',
    });
    for (const secret of [
      'GitHubClientSecret',
      'LarkClientSecret',
      'WeChatServerToken',
      'MessagePusherToken',
      'TurnstileSecretKey',
      'SMTPToken',
    ]) {
      expect(options).not.toHaveProperty(secret);
    }
    const publicKeys = Object.entries(optionDefinitions)
      .filter(([, definition]) => definition.kind !== 'secret')
      .map(([key]) => key);
    expect(Object.keys(options).sort()).toEqual(publicKeys.sort());
    expect(test.context.options.get('GitHubClientSecret')).toBe('very-secret');
  });
});

describe('PUT /api/option/', () => {
  it('takes effect at once in status, registration and new-user quota', async () => {
    expect(envelope(await put('SystemName', '  Acme AI  ')).success).toBe(true);
    expect((await status()).system_name).toBe('Acme AI');
    expect(envelope(await put('DisplayInCurrencyEnabled', false)).success).toBe(true);
    expect((await status()).display_in_currency).toBe(false);

    await put('QuotaForNewUser', '777');
    const register = (username: string) =>
      test.app.inject({
        method: 'POST',
        url: '/api/user/register',
        payload: { username, password: 'password123' },
      });
    expect(envelope(await register('newbie')).success).toBe(true);
    const newbie = await loginAs(test, 'newbie', 'password123');
    expect(
      envelope<User>(await test.app.inject({ url: '/api/user/self', headers: newbie.headers })).data.quota,
    ).toBe(777);
    await put('RegisterEnabled', 'false');
    expect(envelope(await register('late')).success).toBe(false);
  });

  it('accepts only true or false for switches', async () => {
    for (const value of ['yes', '1', '', 'TRUE']) {
      expect(envelope(await put('LogConsumeEnabled', value))).toMatchObject({
        success: false,
        message: 'LogConsumeEnabled must be true or false',
      });
    }
    expect(envelope(await put('LogConsumeEnabled', 'false')).success).toBe(true);
    expect(test.context.options.getBoolean('LogConsumeEnabled')).toBe(false);
  });

  it('refuses a switch whose settings are missing, then accepts it once they are set', async () => {
    expect(envelope(await put('GitHubOAuthEnabled', 'true'))).toMatchObject({
      success: false,
      message: 'Fill in the GitHub client ID and client secret before enabling GitHub OAuth',
    });
    await put('GitHubClientId', 'client-id');
    await put('GitHubClientSecret', 'client-secret');
    expect(envelope(await put('GitHubOAuthEnabled', 'true')).success).toBe(true);
    expect((await status()).github_oauth).toBe(true);
    expect(envelope(await put('EmailVerificationEnabled', 'true')).success).toBe(false);
    expect(envelope(await put('TurnstileCheckEnabled', 'true')).success).toBe(false);
    expect(envelope(await put('WeChatAuthEnabled', 'true')).success).toBe(false);
  });

  it('accepts numbers ≥ 0 only, whole numbers where they count something', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['QuotaForNewUser', -1, 'QuotaForNewUser must be a whole number not less than 0'],
      ['QuotaForNewUser', 'abc', 'QuotaForNewUser must be a whole number not less than 0'],
      ['QuotaForNewUser', '', 'QuotaForNewUser must be a whole number not less than 0'],
      ['RetryTimes', '1.5', 'RetryTimes must be a whole number not less than 0'],
      ['ChannelDisableThreshold', '-0.5', 'ChannelDisableThreshold must be a number not less than 0'],
      ['QuotaPerUnit', '0', 'QuotaPerUnit must be greater than 0'],
      ['SMTPPort', '70000', 'SMTPPort must be between 1 and 65535'],
      ['ResponsesRetentionDays', '0', 'ResponsesRetentionDays must be at least 1 day'],
      ['ResponsesRetentionDays', '7.5', 'ResponsesRetentionDays must be a whole number not less than 0'],
    ];
    for (const [key, value, message] of cases) {
      expect(envelope(await put(key, value))).toMatchObject({ success: false, message });
    }
    expect(envelope(await put('QuotaPerUnit', '1000.5')).success).toBe(true);
    expect(envelope(await put('RetryTimes', 3)).success).toBe(true);
    expect(envelope(await put('ChannelDisableThreshold', '2.5')).success).toBe(true);
    expect(envelope(await put('ResponsesRetentionDays', '7')).success).toBe(true);
    const options = await readOptions();
    expect(options).toMatchObject({
      QuotaForNewUser: '0',
      QuotaPerUnit: '1000.5',
      RetryTimes: '3',
      ChannelDisableThreshold: '2.5',
      ResponsesRetentionDays: '7',
    });
    expect((await status()).quota_per_unit).toBe(1000.5);
  });

  it('checks the ratio JSON with the shared schema messages and keeps the old value on failure', async () => {
    const cases: Array<[string, string, string]> = [
      ['ModelRatio', '{gpt-4: 15}', 'Model ratio is not a valid JSON string'],
      ['GroupRatio', '{"vip": ', 'Group ratio is not a valid JSON string'],
      ['CompletionRatio', 'nope', 'Completion ratio is not a valid JSON string'],
      ['ModelRatio', '[1, 2]', 'Model ratio must be a JSON object of names to numbers'],
      ['GroupRatio', '{"vip": -1}', 'Group ratio: the value of "vip" must be a number not less than 0'],
      ['ModelRatio', '{"gpt-4": "15"}', 'Model ratio: the value of "gpt-4" must be a number not less than 0'],
    ];
    for (const [key, value, message] of cases) {
      expect(envelope(await put(key, value))).toMatchObject({ success: false, message });
    }
    expect(test.context.options.getJson('GroupRatio')).toEqual({ default: 1, vip: 1, svip: 1 });

    const ratios = '{\n  "gpt-4": 15,\n  "gpt-3.5-turbo": 0.75\n}';
    expect(envelope(await put('ModelRatio', ratios)).success).toBe(true);
    expect(test.context.options.getJson('ModelRatio')).toEqual({ 'gpt-4': 15, 'gpt-3.5-turbo': 0.75 });
    expect(envelope(await put('CompletionRatio', '   ')).success).toBe(true);
    expect(test.context.options.get('CompletionRatio')).toBe('{}');
  });

  it('normalises the domain whitelist and the addresses', async () => {
    expect(envelope(await put('EmailDomainWhitelist', ' Example.com, gmail.com,,example.com ')).success).toBe(
      true,
    );
    expect((await readOptions()).EmailDomainWhitelist).toBe('example.com,gmail.com');
    expect(envelope(await put('EmailDomainWhitelist', 'gmail.com,not a domain'))).toMatchObject({
      success: false,
      message: '"not a domain" is not a valid e-mail domain',
    });
    expect(envelope(await put('ServerAddress', ' https://gw.example.com/// ')).success).toBe(true);
    expect((await status()).server_address).toBe('https://gw.example.com');
    expect(envelope(await put('WeChatServerAddress', 'http://wechat.local:3000/')).success).toBe(true);
    expect(test.context.options.get('WeChatServerAddress')).toBe('http://wechat.local:3000');
    expect(envelope(await put('ChatLink', 'javascript:alert(1)'))).toMatchObject({
      success: false,
      message: 'ChatLink must be an http:// or https:// address',
    });
  });

  it('refuses an unknown key and a missing value', async () => {
    expect(envelope(await put('NoSuchOption', 'x'))).toMatchObject({
      success: false,
      message: 'Unknown option: NoSuchOption',
    });
    const missing = await test.app.inject({
      method: 'PUT',
      url: '/api/option/',
      payload: { key: 'Notice' },
      headers: root.headers,
    });
    expect(envelope(missing)).toMatchObject({
      success: false,
      message: 'Option value must be text, a number or a boolean',
    });
  });

  it('survives a restart: values are stored, not only in memory', async () => {
    await put('Notice', 'Maintenance tonight');
    await test.context.options.reload();
    const row = await test.context.db
      .selectFrom('options')
      .selectAll()
      .where('key', '=', 'Notice')
      .executeTakeFirst();
    expect(row?.value).toBe('Maintenance tonight');
  });
});

describe('check for updates', () => {
  let server: Server;
  let answer: (response: import('node:http').ServerResponse) => void;
  beforeEach(async () => {
    server = createServer((_request, response) => answer(response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const url = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/releases/latest`;

  it('compares the latest release with the running version through RELEASES_URL', async () => {
    const release = { tag_name: 'v9.9.9', name: 'Big one', html_url: 'https://x/r', body: '* news' };
    answer = (response) =>
      response.setHeader('content-type', 'application/json').end(JSON.stringify(release));
    const app = await createTestApp({ RELEASES_URL: url() });
    try {
      const admin = await loginAs(app, 'root', '123456');
      const body = envelope<LatestRelease>(
        await app.app.inject({ url: '/api/release/latest', headers: admin.headers }),
      );
      expect(body.data).toMatchObject({ tag_name: 'v9.9.9', is_latest: false, current_version: VERSION });
      answer = (response) => response.end(JSON.stringify([{ tag_name: VERSION }]));
      const same = envelope<LatestRelease>(
        await app.app.inject({ url: '/api/release/latest', headers: admin.headers }),
      );
      expect(same.data.is_latest).toBe(true);
      answer = (response) => response.writeHead(404).end('{}');
      const missing = envelope(await app.app.inject({ url: '/api/release/latest', headers: admin.headers }));
      expect(missing).toMatchObject({
        success: false,
        message: 'Could not check for updates: the releases endpoint answered HTTP 404',
      });
    } finally {
      await app.close();
    }
  });

  it('fails clearly, not by hanging, when the endpoint is silent or unreachable', async () => {
    answer = () => undefined;
    const started = Date.now();
    await expect(fetchLatestRelease(url(), 'v0.1.0', 300)).rejects.toThrow(
      /Could not check for updates: .* could not be read \(no answer within 0.3 s\)/,
    );
    expect(Date.now() - started).toBeLessThan(3000);
    await expect(fetchLatestRelease('http://127.0.0.1:9/releases', 'v0.1.0', 300)).rejects.toThrow(
      /Could not check for updates/,
    );
  });
});
