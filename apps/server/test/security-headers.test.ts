import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OptionKey } from '../src/options/option-defaults';
import { createTestApp, type TestApp } from './test-app';

let test: TestApp;
let dist: string;

beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'gatehouse-headers-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Gatehouse console</title>');
  writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
  test = await createTestApp({ WEB_DIST_PATH: dist, TRUST_PROXY: 'true' });
});
afterAll(async () => {
  await test.close();
  rmSync(dist, { recursive: true, force: true });
});

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: unknown): Map<string, string> {
  expect(typeof header).toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name = '', ...values]) => [name, values.join(' ')]),
  );
}

async function setOption(key: OptionKey, value: string): Promise<void> {
  await test.context.options.set(key, value);
}

describe('security headers', () => {
  it('console pages and assets: nosniff, no framing, a referrer policy and a script-locked CSP', async () => {
    for (const url of ['/', '/login', '/token', '/assets/index-abc123.js']) {
      const response = await test.app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['x-frame-options'], url).toBe('DENY');
      expect(response.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
      const policy = directives(response.headers['content-security-policy']);
      expect(policy.get('frame-ancestors'), url).toBe("'none'");
      expect(policy.get('script-src'), url).toBe("'self'");
      expect(policy.get('connect-src'), url).toBe("'self'");
      expect(policy.get('style-src'), url).toBe("'self' 'unsafe-inline'");
      expect(policy.get('img-src'), url).toBe("'self' data: https:");
      expect(policy.get('frame-src'), url).toBe("'none'");
      expect(policy.get('object-src'), url).toBe("'none'");
    }
  });

  it('management API answers, errors included, refuse framing and rendering', async () => {
    for (const url of ['/api/status', '/api/token/', '/api/no-such-route']) {
      const response = await test.app.inject({ url });
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['x-frame-options'], url).toBe('DENY');
      expect(response.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
      expect(response.headers['content-security-policy'], url).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
    }
  });

  it('relay answers carry only nosniff', async () => {
    for (const url of ['/v1/models', '/v1beta/models', '/dashboard/billing/usage']) {
      const response = await test.app.inject({ url });
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['x-frame-options'], url).toBeUndefined();
      expect(response.headers['content-security-policy'], url).toBeUndefined();
      expect(response.headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  it('sends HSTS only when the request arrived over HTTPS', async () => {
    const plain = await test.app.inject({ url: '/' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const proxied = await test.app.inject({ url: '/', headers: { 'x-forwarded-proto': 'https' } });
    expect(proxied.headers['strict-transport-security']).toBe('max-age=31536000');
    const api = await test.app.inject({ url: '/api/status', headers: { 'x-forwarded-proto': 'https' } });
    expect(api.headers['strict-transport-security']).toBe('max-age=31536000');
  });

  it('lets the console load Turnstile and frame the configured pages, by origin, once set', async () => {
    await setOption('TurnstileSiteKey', 'site-key');
    await setOption('TurnstileSecretKey', 'secret-key');
    await setOption('TurnstileCheckEnabled', 'true');
    await setOption('HomePageContent', 'https://home.example.com/welcome?from=gatehouse');
    await setOption('ChatLink', 'http://chat.example.org:8080/');
    await setOption('About', '# About us\n\n![logo](https://cdn.example.net/logo.png)');
    try {
      const policy = directives((await test.app.inject({ url: '/' })).headers['content-security-policy']);
      expect(policy.get('script-src')).toBe("'self' https://challenges.cloudflare.com");
      expect(policy.get('frame-src')?.split(' ').sort()).toEqual([
        'http://chat.example.org:8080',
        'https://challenges.cloudflare.com',
        'https://home.example.com',
      ]);
    } finally {
      for (const key of ['TurnstileCheckEnabled', 'HomePageContent', 'ChatLink', 'About'] as const) {
        await setOption(key, key === 'TurnstileCheckEnabled' ? 'false' : '');
      }
    }
    const policy = directives((await test.app.inject({ url: '/' })).headers['content-security-policy']);
    expect(policy.get('script-src')).toBe("'self'");
    expect(policy.get('frame-src')).toBe("'none'");
  });
});
