import { randomInt } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisOAuthStateStore } from '../src/auth/oauth-state';
import { MemoryRateLimiter, RedisRateLimiter } from '../src/auth/rate-limiter';
import { startFakeGitHub } from './support/fake-github';
import { createTestApp, envelope, type TestApp } from './test-app';

const REDIS_URL = 'redis://127.0.0.1:6379';
const TOO_MANY = { success: false, message: 'Too many requests, please try again later' };

/** A documentation-range address per test, so counters never collide with other runs sharing Redis. */
const clientAddress = () => `198.51.${randomInt(0, 255)}.${randomInt(1, 254)}`;

const apps: TestApp[] = [];
async function startApp(env: Record<string, string>): Promise<TestApp> {
  const test = await createTestApp(env);
  apps.push(test);
  return test;
}
afterEach(async () => {
  for (const test of apps.splice(0)) await test.close();
});

function login(test: TestApp, remoteAddress: string) {
  return test.app.inject({
    method: 'POST',
    url: '/api/user/login',
    payload: { username: 'root', password: 'wrong' },
    remoteAddress,
  });
}

describe('critical routes', () => {
  it('allows CRITICAL_RATE_LIMIT requests per address, then answers 429 with Retry-After', async () => {
    const test = await startApp({ CRITICAL_RATE_LIMIT: '3' });
    const address = clientAddress();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await login(test, address)).statusCode).toBe(200);
    }
    const refused = await login(test, address);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual(TOO_MANY);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(19 * 60);
    expect(retryAfter).toBeLessThanOrEqual(20 * 60);

    // The count is shared by every critical route, and only by those.
    const reset = await test.app.inject({
      url: '/api/reset_password?email=a%40b.co',
      remoteAddress: address,
    });
    expect(reset.statusCode).toBe(429);
    const state = await test.app.inject({ url: '/api/oauth/state', remoteAddress: address });
    expect(state.statusCode).toBe(429);
    expect((await test.app.inject({ url: '/api/status', remoteAddress: address })).statusCode).toBe(200);
    // Another address has its own count.
    expect((await login(test, clientAddress())).statusCode).toBe(200);
  });
});

describe('global limits', () => {
  it('limits /api/* per address with GLOBAL_API_RATE_LIMIT, also for unknown API paths', async () => {
    const test = await startApp({ GLOBAL_API_RATE_LIMIT: '4' });
    const address = clientAddress();
    for (const url of ['/api/status', '/api/notice', '/api/no-such-thing', '/api/about']) {
      expect((await test.app.inject({ url, remoteAddress: address })).statusCode).not.toBe(429);
    }
    const refused = await test.app.inject({ url: '/api/status', remoteAddress: address });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual(TOO_MANY);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(180);
    // The relay is limited by keys and quota, not by this.
    expect((await test.app.inject({ url: '/v1/models', remoteAddress: address })).statusCode).not.toBe(429);
  });

  it('limits console pages per address with GLOBAL_WEB_RATE_LIMIT, apart from the API', async () => {
    const test = await startApp({ GLOBAL_WEB_RATE_LIMIT: '2' });
    const address = clientAddress();
    expect((await test.app.inject({ url: '/', remoteAddress: address })).statusCode).not.toBe(429);
    expect((await test.app.inject({ url: '/token', remoteAddress: address })).statusCode).not.toBe(429);
    // hashed assets are immutable and cached: a page's many chunks do not count
    expect((await test.app.inject({ url: '/assets/app.js', remoteAddress: address })).statusCode).not.toBe(
      429,
    );
    expect((await test.app.inject({ url: '/setting', remoteAddress: address })).statusCode).toBe(429);
    expect((await test.app.inject({ url: '/api/status', remoteAddress: address })).statusCode).toBe(200);
    // Gemini clients' relay paths are not console pages
    expect((await test.app.inject({ url: '/v1beta/models', remoteAddress: address })).statusCode).toBe(401);
  });
});

describe('client addresses', () => {
  it('counts an address by its first 64 characters, so a forged one of any length costs the limiter little', async () => {
    // TRUST_PROXY=true believes whatever X-Forwarded-For a client sends: its request.ip can be 16 KB long.
    const test = await startApp({ GLOBAL_API_RATE_LIMIT: '1', TRUST_PROXY: 'true' });
    const forged = (tail: string) => ({ 'x-forwarded-for': `2001:db8:${'f'.repeat(8000)}${tail}` });
    expect((await test.app.inject({ url: '/api/status', headers: forged('a') })).statusCode).toBe(200);
    expect((await test.app.inject({ url: '/api/status', headers: forged('b') })).statusCode).toBe(429);
    // Real addresses are all shorter than that: each keeps its own count.
    const real = { 'x-forwarded-for': '2001:db8:85a3::8a2e:370:7334' };
    expect((await test.app.inject({ url: '/api/status', headers: real })).statusCode).toBe(200);
  });
});

describe('MemoryRateLimiter', () => {
  it('opens a new window once the old one ends', async () => {
    const limiter = new MemoryRateLimiter();
    expect((await limiter.hit('k', 1, 50)).isAllowed).toBe(true);
    expect((await limiter.hit('k', 1, 50)).isAllowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 70));
    expect(await limiter.hit('k', 1, 50)).toMatchObject({ isAllowed: true, count: 1 });
  });

  it('holds at most its capacity of windows however many addresses come; the oldest windows go first', async () => {
    const limiter = new MemoryRateLimiter(100);
    for (let index = 0; index < 1000; index += 1) {
      await limiter.hit(`api:2001:db8::${index.toString(16)}`, 5, 60_000);
    }
    expect(limiter.size).toBeLessThanOrEqual(100);
    // The latest addresses keep their counts; the earliest start over.
    expect(await limiter.hit('api:2001:db8::3e7', 5, 60_000)).toMatchObject({ count: 2 });
    expect(await limiter.hit('api:2001:db8::0', 5, 60_000)).toMatchObject({ count: 1 });
  });
});

async function isRedisUp(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 500, maxRetriesPerRequest: 0 });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const redisUp = await isRedisUp();

describe.skipIf(!redisUp)('with Redis (REDIS_CONN_STRING)', () => {
  let redis: Redis;
  const prefix = `gatehouse-test:${process.pid}:${Date.now()}:`;
  beforeAll(() => {
    redis = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('counts atomically: 40 concurrent hits with limit 10 let exactly 10 through, with a TTL', async () => {
    const limiter = new RedisRateLimiter(redis, prefix);
    const results = await Promise.all(Array.from({ length: 40 }, () => limiter.hit('burst', 10, 60_000)));
    expect(results.filter((result) => result.isAllowed)).toHaveLength(10);
    expect(results.map((result) => result.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 40 }, (_, index) => index + 1),
    );
    const ttl = await redis.pttl(`${prefix}burst`);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('opens a new window once the key expires', async () => {
    const limiter = new RedisRateLimiter(redis, prefix);
    expect((await limiter.hit('short', 1, 100)).isAllowed).toBe(true);
    expect((await limiter.hit('short', 1, 100)).isAllowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await limiter.hit('short', 1, 100)).isAllowed).toBe(true);
  });

  it('hands an OAuth state out once', async () => {
    const store = new RedisOAuthStateStore(redis, prefix);
    await store.save('state-1', { userId: 7 }, 10_000);
    const [first, second] = await Promise.all([store.take('state-1'), store.take('state-1')]);
    expect([first, second].filter((entry) => entry !== null)).toEqual([{ userId: 7 }]);
  });

  it('shares limits and OAuth states between two instances', async () => {
    const github = await startFakeGitHub('client-id', 'client-secret');
    try {
      const env = {
        REDIS_CONN_STRING: REDIS_URL,
        CRITICAL_RATE_LIMIT: '3',
        GITHUB_OAUTH_BASE_URL: github.url,
        GITHUB_API_BASE_URL: github.url,
      };
      const first = await startApp(env);
      const second = await startApp(env);
      const address = clientAddress();
      expect((await login(first, address)).statusCode).toBe(200);
      expect((await login(second, address)).statusCode).toBe(200);
      expect((await login(first, address)).statusCode).toBe(200);
      expect((await login(second, address)).statusCode).toBe(429);

      // The browser asks one instance for the state; GitHub sends it back to the other.
      const issued = await first.app.inject({ url: '/api/oauth/state', remoteAddress: clientAddress() });
      const state = envelope<string>(issued).data;
      const cookie = issued.cookies.find((candidate) => candidate.name === 'gatehouse_oauth_state');
      await second.context.options.set('GitHubOAuthEnabled', 'true');
      await second.context.options.set('GitHubClientId', 'client-id');
      await second.context.options.set('GitHubClientSecret', 'client-secret');
      const code = github.authorize({ id: 42, login: 'roamer', name: null });
      const callback = await second.app.inject({
        url: `/api/oauth/github?code=${code}&state=${state}`,
        headers: { cookie: `gatehouse_oauth_state=${cookie?.value}` },
        remoteAddress: clientAddress(),
      });
      expect(envelope(callback)).toMatchObject({ success: true, data: { username: 'roamer' } });
    } finally {
      await github.close();
    }
  });
});
