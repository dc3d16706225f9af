import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TokenStatus, type Token } from '@gatehouse/shared';
import { createTestApp, createUserSession, envelope, type Session, type TestApp } from './test-app';

let test: TestApp;
let alice: Session;
beforeEach(async () => {
  test = await createTestApp();
  alice = await createUserSession(test);
});
afterEach(async () => {
  await test.close();
});

const now = () => Math.floor(Date.now() / 1000);

async function call<T = Token>(
  session: Session,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) {
  return envelope<T>(await test.app.inject({ method, url, payload, headers: session.headers }));
}

async function createKey(session: Session, fields: Record<string, unknown> = {}): Promise<Token> {
  const body = await call(session, 'POST', '/api/token/', {
    name: 'my key',
    remain_quota: 500000,
    expired_time: -1,
    unlimited_quota: false,
    models: '',
    subnet: '',
    ...fields,
  });
  expect(body.message).toBe('');
  expect(body.success).toBe(true);
  return body.data;
}

async function storedKeyCount(): Promise<number> {
  const rows = await test.context.db.selectFrom('tokens').select('id').execute();
  return rows.length;
}

describe('creating a key', () => {
  it('stores 48 random characters without sk- and answers the key with its fields', async () => {
    const key = await createKey(alice, {
      name: ' travel ',
      models: 'gpt-4o, gpt-4o-mini,,gpt-4o',
      subnet: ' 10.0.0.0/8 ,2001:db8::/32',
    });
    expect(key.key).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(key).toMatchObject({
      name: 'travel',
      status: TokenStatus.enabled,
      remain_quota: 500000,
      unlimited_quota: false,
      expired_time: -1,
      used_quota: 0,
      models: 'gpt-4o,gpt-4o-mini',
      subnet: '10.0.0.0/8,2001:db8::/32',
    });
    expect(Math.abs(key.created_time - now())).toBeLessThan(5);
    const stored = await test.context.db
      .selectFrom('tokens')
      .selectAll()
      .where('id', '=', key.id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ key: key.key, user_id: alice.user.id });
  });

  it('draws a different key every time', async () => {
    const keys = await Promise.all(
      Array.from({ length: 12 }, (_, index) => createKey(alice, { name: `k${index}` })),
    );
    expect(new Set(keys.map((key) => key.key)).size).toBe(12);
  });

  it('needs a login', async () => {
    const response = await test.app.inject({ method: 'POST', url: '/api/token/', payload: { name: 'x' } });
    expect(response.statusCode).toBe(401);
  });

  const invalid: Array<[string, Record<string, unknown>, RegExp]> = [
    ['a missing name', { name: undefined }, /Key name is required/],
    ['a blank name', { name: '   ' }, /Key name is required/],
    ['a name of 31 characters', { name: 'x'.repeat(31) }, /at most 30 characters/],
    ['a negative quota', { remain_quota: -1 }, /remain_quota must be a whole number of at least 0/],
    ['a fractional quota', { remain_quota: 1.5 }, /remain_quota/],
    ['a text quota', { remain_quota: 'lots' }, /remain_quota/],
    ['expiry 0', { expired_time: 0 }, /expired_time must be -1/],
    ['expiry -2', { expired_time: -2 }, /expired_time must be -1/],
    ['expiry in milliseconds', { expired_time: Date.now() + 86_400_000 }, /expired_time must be -1/],
    ['expiry as a date string', { expired_time: '2030-01-01' }, /expired_time must be -1/],
    ['a subnet without prefix', { subnet: '10.0.0.1' }, /Invalid subnet "10.0.0.1"/],
    ['an IPv4 prefix over 32', { subnet: '10.0.0.0/8,10.0.0.0/33' }, /Invalid subnet "10.0.0.0\/33"/],
    ['an IPv6 prefix over 128', { subnet: '2001:db8::/129' }, /Invalid subnet "2001:db8::\/129"/],
    ['a bad address', { subnet: '300.1.1.1/24' }, /Invalid subnet "300.1.1.1\/24"/],
    ['words', { subnet: 'office network' }, /Invalid subnet "office network"/],
    ['unlimited as text', { unlimited_quota: 'yes' }, /unlimited_quota must be true or false/],
  ];
  it.each(invalid)('refuses %s with a clear message and stores nothing', async (_, fields, message) => {
    const body = await call(alice, 'POST', '/api/token/', {
      name: 'k',
      remain_quota: 10,
      expired_time: -1,
      ...fields,
    });
    expect(body.success).toBe(false);
    expect(body.message).toMatch(message);
    expect(await storedKeyCount()).toBe(0);
  });

  it('accepts quotas and times sent as numeric text and 0/1 flags (scripts)', async () => {
    const expiry = now() + 3600;
    const key = await createKey(alice, {
      remain_quota: '42',
      expired_time: String(expiry),
      unlimited_quota: 1,
    });
    expect(key).toMatchObject({ remain_quota: 42, expired_time: expiry, unlimited_quota: true });
  });
});

describe('listing, searching, reading', () => {
  it('lists only own keys, newest first, with orders and paging', async () => {
    const bob = await createUserSession(test);
    await createKey(bob, { name: 'bob key' });
    const small = await createKey(alice, { name: 'small', remain_quota: 10 });
    const big = await createKey(alice, { name: 'big', remain_quota: 9000 });
    const middle = await createKey(alice, { name: 'middle', remain_quota: 500 });
    await test.context.db.updateTable('tokens').set({ used_quota: 77 }).where('id', '=', small.id).execute();

    const names = async (url: string) => (await call<Token[]>(alice, 'GET', url)).data.map((key) => key.name);
    expect(await names('/api/token/?p=0')).toEqual(['middle', 'big', 'small']);
    expect(await names('/api/token/?p=0&order=remain_quota')).toEqual(['big', 'middle', 'small']);
    expect(await names('/api/token/?p=0&order=used_quota')).toEqual(['small', 'middle', 'big']);
    expect(await names('/api/token/?p=1&size=2')).toEqual(['small']);
    expect(big.id).toBeGreaterThan(small.id);
    expect(middle.id).toBeGreaterThan(big.id);
  });

  it('searches own keys by name and by the key with or without sk-', async () => {
    const bob = await createUserSession(test);
    const bobKey = await createKey(bob, { name: 'shared name' });
    const key = await createKey(alice, { name: 'shared name' });
    await createKey(alice, { name: 'other' });
    const search = async (keyword: string) =>
      (
        await call<Token[]>(alice, 'GET', `/api/token/search?keyword=${encodeURIComponent(keyword)}`)
      ).data.map((found) => found.id);
    expect(await search(' shared ')).toEqual([key.id]);
    expect(await search(`sk-${key.key}`)).toEqual([key.id]);
    expect(await search(key.key)).toEqual([key.id]);
    expect(await search(`sk-${bobKey.key}`)).toEqual([]);
    expect(await search('50%')).toEqual([]);
  });

  it('reads one own key', async () => {
    const key = await createKey(alice);
    const body = await call(alice, 'GET', `/api/token/${key.id}`);
    expect(body.data).toMatchObject({ id: key.id, key: key.key, name: 'my key' });
    expect((await call(alice, 'GET', '/api/token/999999')).success).toBe(false);
  });
});

describe("another user's key does not exist for you", () => {
  it('refuses reading, editing, toggling and deleting it with the not-found answer, changing nothing', async () => {
    const key = await createKey(alice, { name: 'alice key' });
    const mallory = await createUserSession(test);
    const missing = await call(mallory, 'GET', '/api/token/999999');

    const attempts = [
      await call(mallory, 'GET', `/api/token/${key.id}`),
      await call(mallory, 'PUT', '/api/token/', {
        id: key.id,
        name: 'stolen',
        remain_quota: 1,
        expired_time: -1,
      }),
      await call(mallory, 'PUT', '/api/token/?status_only=true', {
        id: key.id,
        status: TokenStatus.disabled,
      }),
      await call(mallory, 'DELETE', `/api/token/${key.id}/`),
    ];
    for (const attempt of attempts) {
      expect(attempt).toEqual({ success: false, message: missing.message });
    }
    expect(missing.message).toBe('Key not found');
    expect((await call<Token[]>(mallory, 'GET', '/api/token/')).data).toEqual([]);
    const after = await call(alice, 'GET', `/api/token/${key.id}`);
    expect(after.data).toMatchObject({
      name: 'alice key',
      status: TokenStatus.enabled,
      remain_quota: 500000,
    });
  });

  it('does not let an admin reach it either', async () => {
    const key = await createKey(alice);
    const admin = await createUserSession(test, { role: 10 });
    expect((await call(admin, 'DELETE', `/api/token/${key.id}`)).success).toBe(false);
    expect(await storedKeyCount()).toBe(1);
  });
});

describe('editing a key', () => {
  it('updates the fields and keeps the secret', async () => {
    const key = await createKey(alice);
    const expiry = now() + 86400;
    const body = await call(alice, 'PUT', '/api/token/', {
      id: key.id,
      name: 'renamed',
      remain_quota: 0,
      unlimited_quota: true,
      expired_time: expiry,
      models: 'claude-3-haiku',
      subnet: '192.168.0.0/16',
    });
    expect(body.success).toBe(true);
    expect(body.data).toMatchObject({
      id: key.id,
      key: key.key,
      name: 'renamed',
      unlimited_quota: true,
      expired_time: expiry,
      models: 'claude-3-haiku',
      subnet: '192.168.0.0/16',
      status: TokenStatus.enabled,
    });
  });

  it('validates like creation and changes nothing on refusal', async () => {
    const key = await createKey(alice);
    const body = await call(alice, 'PUT', '/api/token/', {
      id: key.id,
      name: 'ok',
      remain_quota: 5,
      subnet: 'fe80::/10,nope',
    });
    expect(body).toMatchObject({ success: false, message: expect.stringContaining('Invalid subnet "nope"') });
    expect((await call(alice, 'GET', `/api/token/${key.id}`)).data).toMatchObject({
      name: 'my key',
      subnet: '',
    });
  });

  it('deletes, after which the key is gone', async () => {
    const key = await createKey(alice);
    expect((await call(alice, 'DELETE', `/api/token/${key.id}/`)).success).toBe(true);
    expect((await call(alice, 'GET', `/api/token/${key.id}`)).success).toBe(false);
    expect((await call(alice, 'DELETE', `/api/token/${key.id}/`)).message).toBe('Key not found');
  });
});

describe('key status', () => {
  const toggle = (id: number, status: number) =>
    call(alice, 'PUT', '/api/token/?status_only=true', { id, status });

  it('disables and enables again', async () => {
    const key = await createKey(alice);
    expect((await toggle(key.id, TokenStatus.disabled)).data).toMatchObject({ status: TokenStatus.disabled });
    expect((await toggle(key.id, TokenStatus.enabled)).data).toMatchObject({ status: TokenStatus.enabled });
  });

  it('never lets a user set expired or exhausted', async () => {
    const key = await createKey(alice);
    for (const status of [TokenStatus.expired, TokenStatus.exhausted, 0, 9]) {
      expect((await toggle(key.id, status)).message).toMatch(
        /status must be 1 \(enabled\) or 2 \(disabled\)/,
      );
    }
  });

  it('marks a key expired once its time has passed and refuses to enable it until it is extended', async () => {
    const key = await createKey(alice, { expired_time: now() + 3600 });
    await test.context.db
      .updateTable('tokens')
      .set({ expired_time: now() - 10 })
      .where('id', '=', key.id)
      .execute();
    expect((await call<Token[]>(alice, 'GET', '/api/token/')).data[0]).toMatchObject({
      status: TokenStatus.expired,
    });

    const refused = await toggle(key.id, TokenStatus.enabled);
    expect(refused).toMatchObject({
      success: false,
      message: expect.stringMatching(/expired and cannot be enabled/),
    });

    const extended = await call(alice, 'PUT', '/api/token/', {
      id: key.id,
      name: 'my key',
      remain_quota: 500000,
      expired_time: -1,
    });
    expect(extended.data).toMatchObject({ status: TokenStatus.enabled });
  });

  it('creates a key with a past expiry as expired', async () => {
    const key = await createKey(alice, { expired_time: now() - 60 });
    expect(key.status).toBe(TokenStatus.expired);
    expect((await toggle(key.id, TokenStatus.enabled)).success).toBe(false);
  });

  it('refuses to enable an exhausted key unless it gets quota or becomes unlimited', async () => {
    const key = await createKey(alice, { remain_quota: 0 });
    expect(key.status).toBe(TokenStatus.exhausted);
    expect((await toggle(key.id, TokenStatus.enabled)).message).toMatch(
      /used up its quota and cannot be enabled/,
    );

    await call(alice, 'PUT', '/api/token/', {
      id: key.id,
      name: 'my key',
      remain_quota: 0,
      unlimited_quota: true,
      expired_time: -1,
    });
    expect((await call(alice, 'GET', `/api/token/${key.id}`)).data.status).toBe(TokenStatus.enabled);
  });

  it('keeps a disabled key disabled through an edit', async () => {
    const key = await createKey(alice);
    await toggle(key.id, TokenStatus.disabled);
    const edited = await call(alice, 'PUT', '/api/token/', {
      id: key.id,
      name: 'still off',
      remain_quota: 1,
      expired_time: -1,
    });
    expect(edited.data).toMatchObject({ name: 'still off', status: TokenStatus.disabled });
  });
});
