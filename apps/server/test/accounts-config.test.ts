import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/config';
import { usernameCandidates } from '../src/auth/external-sign-in';
import { buildTransportOptions } from '../src/auth/mailer';
import { BusinessError } from '../src/http/envelope';
import { createTestApp } from './test-app';

describe('account configuration', () => {
  it('defaults to the real third-party addresses and 20 critical requests per 20 minutes', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      criticalRateLimit: 20,
      githubOAuthBaseUrl: 'https://github.com',
      githubApiBaseUrl: 'https://api.github.com',
      larkApiBaseUrl: 'https://open.feishu.cn',
      turnstileVerifyUrl: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    });
  });

  it("tells the console where GitHub's authorise page is, so a stand-in GitHub works end to end", async () => {
    const test = await createTestApp({ GITHUB_OAUTH_BASE_URL: 'http://127.0.0.1:9000/' });
    try {
      const status = await test.app.inject({ url: '/api/status' });
      expect(status.json().data.github_oauth_base_url).toBe('http://127.0.0.1:9000');
    } finally {
      await test.close();
    }
  });

  it('drops a trailing slash from the addresses', () => {
    expect(loadConfig({ GITHUB_API_BASE_URL: 'http://127.0.0.1:8080/' }).githubApiBaseUrl).toBe(
      'http://127.0.0.1:8080',
    );
  });

  it.each([
    [{ GITHUB_OAUTH_BASE_URL: 'github.com' }, 'GITHUB_OAUTH_BASE_URL'],
    [{ GITHUB_API_BASE_URL: 'ftp://api.github.com' }, 'GITHUB_API_BASE_URL'],
    [{ LARK_API_BASE_URL: 'not a url' }, 'LARK_API_BASE_URL'],
    [{ TURNSTILE_VERIFY_URL: '://x' }, 'TURNSTILE_VERIFY_URL'],
    [{ CRITICAL_RATE_LIMIT: '0' }, 'CRITICAL_RATE_LIMIT'],
    [{ CRITICAL_RATE_LIMIT: 'twenty' }, 'CRITICAL_RATE_LIMIT'],
  ])('refuses %o with a message naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });
});

describe('SMTP transport options', () => {
  it('uses implicit TLS on 465 and STARTTLS-capable plain SMTP elsewhere, with the account as login', async () => {
    const test = await createTestApp();
    try {
      const { options } = test.context;
      await options.set('SMTPServer', 'smtp.example.com');
      await options.set('SMTPAccount', 'bot@example.com');
      await options.set('SMTPToken', 'secret');
      await options.set('SMTPPort', '465');
      expect(buildTransportOptions(options)).toMatchObject({
        host: 'smtp.example.com',
        port: 465,
        secure: true,
        auth: { user: 'bot@example.com', pass: 'secret' },
        from: '"Gatehouse" <bot@example.com>',
      });
      await options.set('SMTPPort', '587');
      await options.set('SMTPFrom', 'Ops <ops@example.com>');
      expect(buildTransportOptions(options)).toMatchObject({
        port: 587,
        secure: false,
        from: 'Ops <ops@example.com>',
      });
      await options.set('SMTPServer', '');
      expect(() => buildTransportOptions(options)).toThrow(BusinessError);
    } finally {
      await test.close();
    }
  });
});

describe('usernameCandidates', () => {
  it('offers the login first, then numbered variants, all at most 12 characters', () => {
    const candidates = usernameCandidates('octocat');
    expect(candidates[0]).toBe('octocat');
    expect(candidates.slice(1).every((name) => /^octocat_\d{4}$/.test(name))).toBe(true);
    expect(usernameCandidates('wechat_').every((name) => /^wechat_\d{5}$/.test(name))).toBe(true);
    expect(usernameCandidates('a-very-long-github-login').every((name) => name.length <= 12)).toBe(true);
  });
});
