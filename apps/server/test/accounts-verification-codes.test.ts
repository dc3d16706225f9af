import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  MemoryVerificationCodes,
  RedisVerificationCodes,
  type VerificationCodeStore,
} from '../src/auth/verification-codes';
import { startSmtpCatcher, type SmtpCatcher } from './support/smtp-catcher';
import { createTestApp, createUserSession, envelope, loginAs, type TestApp } from './test-app';

const REDIS_URL = 'redis://127.0.0.1:6379';
const SMTP_ACCOUNT = 'mailer@gatehouse.test';
const SMTP_TOKEN = 'smtp-app-password';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
/** Keys of this run only, so parallel runs sharing the Redis never meet. */
const runTag = `${process.pid}-${Date.now()}`;
const prefix = `gatehouse-test:verification:${runTag}:`;

/** The same rules for both stores; `make` gets the code lifetime. */
function describeStoreRules(name: string, make: (ttlMs: number) => VerificationCodeStore): void {
  describe(name, () => {
    it('accepts the right code once, in any case; a wrong code does not spend it', async () => {
      const store = make(60_000);
      const code = await store.issue('register', 'Eve@Example.com');
      expect(code).toMatch(/^[0-9A-Z]{6}$/);
      expect(await store.consume('register', 'eve@example.com', 'WRONG1')).toBe(false);
      expect(await store.consume('reset', 'eve@example.com', code)).toBe(false);
      // One mailed code proves the address for binding too.
      expect(await store.consume('bind', ' EVE@example.COM ', ` ${code.toLowerCase()} `)).toBe(true);
      expect(await store.consume('register', 'eve@example.com', code)).toBe(false);
    });

    it('replaces an earlier code and withdraws a revoked one', async () => {
      const store = make(60_000);
      const first = await store.issue('reset', 'frank@example.com');
      const second = await store.issue('reset', 'frank@example.com');
      expect(second).toHaveLength(32);
      expect(await store.consume('reset', 'frank@example.com', first)).toBe(false);
      await store.revoke('reset', 'Frank@example.com');
      expect(await store.consume('reset', 'frank@example.com', second)).toBe(false);
    });

    it('refuses a code after its lifetime', async () => {
      const store = make(100);
      const code = await store.issue('register', 'gina@example.com');
      await pause(200);
      expect(await store.consume('register', 'gina@example.com', code)).toBe(false);
    });
  });
}

describeStoreRules('MemoryVerificationCodes', (ttlMs) => new MemoryVerificationCodes(ttlMs));

describe('MemoryVerificationCodes', () => {
  it('holds at most its capacity of codes however many addresses ask; the oldest go first', async () => {
    const store = new MemoryVerificationCodes(60_000, 100);
    const codes: string[] = [];
    for (let index = 0; index < 1000; index += 1) {
      codes.push(await store.issue('register', `user${index}@example.com`));
    }
    expect(store.size).toBeLessThanOrEqual(100);
    expect(await store.consume('register', 'user999@example.com', codes[999])).toBe(true);
    expect(await store.consume('register', 'user0@example.com', codes[0])).toBe(false);
  });
});

describe.skipIf(!redisUp)('verification codes in Redis (REDIS_CONN_STRING)', () => {
  const clients: Redis[] = [];
  const connect = () => {
    const client = new Redis(REDIS_URL);
    clients.push(client);
    return client;
  };
  afterAll(async () => {
    const [cleaner] = clients;
    if (cleaner) {
      const keys = await cleaner.keys(`${prefix}*`);
      if (keys.length > 0) await cleaner.del(...keys);
    }
    await Promise.all(clients.map((client) => client.quit()));
  });

  describeStoreRules(
    'RedisVerificationCodes',
    (ttlMs) => new RedisVerificationCodes(connect(), ttlMs, prefix),
  );

  it('stores the code with the lifetime as a Redis expiry', async () => {
    const redis = connect();
    await new RedisVerificationCodes(redis, 60_000, prefix).issue('register', 'Hana@Example.com');
    const ttl = await redis.pttl(`${prefix}email:hana@example.com`);
    expect(ttl).toBeGreaterThan(55_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('lets exactly one of 20 parallel consumes over two connections spend a code', async () => {
    const one = new RedisVerificationCodes(connect(), 60_000, prefix);
    const other = new RedisVerificationCodes(connect(), 60_000, prefix);
    const code = await one.issue('register', 'ivan@example.com');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        (index % 2 === 0 ? one : other).consume('register', 'ivan@example.com', code),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  describe('two app instances sharing Redis and the database', () => {
    let smtp: SmtpCatcher;
    let first: TestApp;
    let second: TestApp;

    beforeAll(async () => {
      smtp = await startSmtpCatcher({ account: SMTP_ACCOUNT, password: SMTP_TOKEN });
    });
    afterAll(async () => {
      await smtp.close();
    });
    beforeEach(async () => {
      first = await createTestApp({ REDIS_CONN_STRING: REDIS_URL });
      second = await createTestApp({
        REDIS_CONN_STRING: REDIS_URL,
        SQLITE_PATH: first.context.config.sqlitePath,
      });
      for (const { context } of [first, second]) {
        await context.options.set('SMTPServer', '127.0.0.1');
        await context.options.set('SMTPPort', String(smtp.port));
        await context.options.set('SMTPAccount', SMTP_ACCOUNT);
        await context.options.set('SMTPToken', SMTP_TOKEN);
        await context.options.set('SMTPFrom', 'noreply@gatehouse.test');
        await context.options.set('ServerAddress', 'https://gate.example.com');
        await context.options.set('EmailVerificationEnabled', 'true');
      }
    });
    afterEach(async () => {
      // The second app's temp folder holds no database; the first one's goes last.
      await second.close();
      await first.close();
    });

    const register = (app: TestApp, payload: Record<string, unknown>) =>
      app.app.inject({ method: 'POST', url: '/api/user/register', payload });

    it('uses the Redis store for codes', () => {
      expect(first.context.verificationCodes).toBeInstanceOf(RedisVerificationCodes);
      expect(first.context.auth.verificationCodes).toBe(first.context.verificationCodes);
    });

    it('accepts a code mailed by one instance once on the other', async () => {
      const email = `reg-${runTag}@example.com`;
      const sent = envelope(
        await first.app.inject({ url: `/api/verification?email=${encodeURIComponent(email)}` }),
      );
      expect(sent.success).toBe(true);
      const code = /verification code is: (\S+)/.exec((await smtp.nextMailTo(email)).text)?.[1] ?? '';
      expect(code).toMatch(/^[0-9A-Z]{6}$/);

      const payload = { password: 'password123', email };
      const wrong = envelope(
        await register(second, { ...payload, username: 'kim', verification_code: 'WRONG1' }),
      );
      expect(wrong).toMatchObject({
        success: false,
        message: 'The verification code is wrong or has expired',
      });
      expect(
        envelope(await register(second, { ...payload, username: 'kim', verification_code: code })).success,
      ).toBe(true);
      const reused = envelope(
        await register(first, { ...payload, username: 'kim2', verification_code: code }),
      );
      expect(reused).toMatchObject({
        success: false,
        message: 'The verification code is wrong or has expired',
      });
      await loginAs(first, 'kim', 'password123');
    });

    it('accepts a reset link mailed by one instance once on the other', async () => {
      const email = `reset-${runTag}@example.com`;
      const owner = await createUserSession(first, { username: 'lena', password: 'old-password' });
      await first.context.db.updateTable('users').set({ email }).where('id', '=', owner.user.id).execute();
      expect(
        envelope(await first.app.inject({ url: `/api/reset_password?email=${encodeURIComponent(email)}` }))
          .success,
      ).toBe(true);
      const link = /(https?:\/\/\S+)/.exec((await smtp.nextMailTo(email)).text)?.[1] ?? '';
      const token = new URL(link).searchParams.get('token') ?? '';
      expect(token).toHaveLength(32);

      const confirm = (app: TestApp) =>
        app.app.inject({ method: 'POST', url: '/api/user/reset', payload: { email, token } });
      const reset = envelope<string>(await confirm(second));
      expect(reset.success).toBe(true);
      await loginAs(first, 'lena', reset.data);
      expect(envelope(await confirm(first))).toMatchObject({
        success: false,
        message: 'The reset link is invalid or has expired',
      });
    });
  });
});
