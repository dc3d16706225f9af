import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Role, TokenStatus, UserStatus } from '@gatehouse/shared';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';

let kit: RelayKit;
let upstream: OpenAIUpstream;
let pinned: OpenAIUpstream;
let pinnedChannelId: number;

beforeAll(async () => {
  upstream = await startOpenAIUpstream('alpha');
  pinned = await startOpenAIUpstream('pinned');
  kit = await startRelayKit();
  await kit.createChannel({ upstream, models: 'gpt-4o-mini,my-private-model' });
  pinnedChannelId = await kit.createChannel({ upstream: pinned, models: 'gpt-4o-mini', priority: -10 });
  await kit.createChannel({ upstream, models: 'gpt-4o', group: 'vip' });
});
afterAll(async () => {
  await kit.close();
  await upstream.close();
  await pinned.close();
});
beforeEach(() => {
  upstream.received.length = 0;
});

interface ErrorAnswer {
  status: number;
  error: { message: string; type: string; code: string | null; param: string | null };
}

async function call(
  headers: Record<string, string>,
  model = 'gpt-4o-mini',
  fields: Record<string, unknown> = {},
): Promise<ErrorAnswer> {
  const response = await fetch(`${kit.gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }], ...fields }),
  });
  const body = (await response.json()) as { error: ErrorAnswer['error'] };
  return { status: response.status, error: body.error };
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe('key authentication', () => {
  it('accepts the key as Bearer, x-api-key or api-key, with or without sk-', async () => {
    const user = await kit.createUser();
    const { key } = await kit.createKey(user.id);
    const variants: Array<Record<string, string>> = [
      bearer(key),
      { 'x-api-key': key },
      { 'api-key': key },
      bearer(key.slice(3)),
    ];
    for (const headers of variants) {
      const answer = await call(headers);
      expect(answer.status).toBe(200);
    }
  });

  it('refuses a missing or unknown key with 401 and never calls upstream', async () => {
    const missing = await call({});
    expect(missing).toMatchObject({
      status: 401,
      error: { code: 'invalid_api_key', type: 'invalid_request_error' },
    });
    expect(missing.error.message).toMatch(/request id: \w+\)$/);
    expect(await call(bearer('sk-doesnotexist'))).toMatchObject({
      status: 401,
      error: { code: 'invalid_api_key' },
    });
    expect(upstream.received).toHaveLength(0);
  });

  it('refuses a disabled key', async () => {
    const user = await kit.createUser();
    const { key } = await kit.createKey(user.id, { status: TokenStatus.disabled });
    expect(await call(bearer(key))).toMatchObject({
      status: 401,
      error: { message: expect.stringContaining('disabled') },
    });
  });

  it('refuses an expired key and marks it expired', async () => {
    const user = await kit.createUser();
    const { id, key } = await kit.createKey(user.id, { expiredTime: Math.floor(Date.now() / 1000) - 60 });
    expect(await call(bearer(key))).toMatchObject({
      status: 401,
      error: { message: expect.stringContaining('expired') },
    });
    const row = await kit.test.context.db
      .selectFrom('tokens')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe(TokenStatus.expired);
  });

  it('refuses an exhausted key with insufficient_quota and marks it exhausted', async () => {
    const user = await kit.createUser();
    const { id, key } = await kit.createKey(user.id, { isUnlimited: false, remainQuota: 0 });
    const response = await fetch(`${kit.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(key) },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('x-should-retry')).toBe('false');
    expect(((await response.json()) as ErrorAnswer).error.code).toBe('insufficient_quota');
    const row = await kit.test.context.db
      .selectFrom('tokens')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe(TokenStatus.exhausted);
  });

  it('names a balance and a reservation under a cent to the sixth decimal, not as $0.00', async () => {
    const user = await kit.createUser({ quota: 100 });
    const { key } = await kit.createKey(user.id);
    const refused = await call(bearer(key), 'gpt-4o-mini', { max_tokens: 2000 });
    expect(refused.status).toBe(429);
    expect(refused.error.message).toMatch(
      /^Your balance \(\$0\.000200\) is not enough for this request, which reserves \$0\.\d{6} up front/,
    );
  });

  it('refuses a request whose worst case no balance can hold as the client’s mistake, charging nothing', async () => {
    const user = await kit.createUser({ quota: 1_000_000 });
    const { key } = await kit.createKey(user.id);
    const refused = await call(bearer(key), 'gpt-4o-mini', { max_tokens: 1e308 });
    expect(refused.status).toBe(400);
    expect(refused.error).toMatchObject({
      type: 'invalid_request_error',
      message: expect.stringContaining(
        'could cost more than any balance can hold: ask for fewer output tokens',
      ),
    });
    expect(await kit.userQuota(user.id)).toBe(1_000_000);
  });

  it('stops a key disabled a moment ago, although its lookup is cached', async () => {
    const user = await kit.createUser();
    for (const isUnlimited of [true, false]) {
      const { id, key } = await kit.createKey(user.id, { isUnlimited });
      expect((await call(bearer(key))).status).toBe(200);
      await kit.test.context.db
        .updateTable('tokens')
        .set({ status: TokenStatus.disabled })
        .where('id', '=', id)
        .execute();
      expect(await call(bearer(key))).toMatchObject({
        status: 401,
        error: { message: expect.stringContaining('disabled') },
      });
    }
  });

  it('stops a user disabled by an administrator at once', async () => {
    const user = await kit.createUser();
    const { key } = await kit.createKey(user.id);
    expect((await call(bearer(key))).status).toBe(200);
    await kit.test.context.db
      .updateTable('users')
      .set({ status: UserStatus.disabled })
      .where('id', '=', user.id)
      .execute();
    expect(await call(bearer(key))).toMatchObject({ status: 403, error: { code: 'account_deactivated' } });
  });

  it('refuses the key of a disabled user', async () => {
    const user = await kit.createUser({ status: UserStatus.disabled });
    const { key } = await kit.createKey(user.id);
    expect(await call(bearer(key))).toMatchObject({ status: 403, error: { code: 'account_deactivated' } });
  });

  it('allows only client addresses inside the key subnets', async () => {
    const user = await kit.createUser();
    const outside = await kit.createKey(user.id, { subnet: '10.0.0.0/8,192.168.0.0/16' });
    expect(await call(bearer(outside.key))).toMatchObject({ status: 403, error: { code: 'ip_not_allowed' } });
    const inside = await kit.createKey(user.id, { subnet: '10.0.0.0/8,127.0.0.0/8' });
    expect((await call(bearer(inside.key))).status).toBe(200);
  });

  it('allows only the models of the key model list', async () => {
    const user = await kit.createUser();
    const { key } = await kit.createKey(user.id, { models: 'gpt-4o' });
    expect(await call(bearer(key), 'gpt-4o-mini')).toMatchObject({
      status: 403,
      error: { code: 'model_not_allowed' },
    });
  });
});

describe('channel choice', () => {
  it('answers 503 when no channel serves the model in the user group', async () => {
    const user = await kit.createUser();
    const { key } = await kit.createKey(user.id);
    const answer = await call(bearer(key), 'gpt-4o');
    expect(answer).toMatchObject({ status: 503, error: { code: 'model_not_available' } });
    expect(answer.error.message).toContain('group "default"');
  });

  it('serves the user group, and the next group of a user in several', async () => {
    const vip = await kit.createUser({ group: 'vip' });
    expect((await call(bearer((await kit.createKey(vip.id)).key), 'gpt-4o')).status).toBe(200);
    const both = await kit.createUser({ group: 'default,vip' });
    expect((await call(bearer((await kit.createKey(both.id)).key), 'gpt-4o')).status).toBe(200);
  });

  it('refuses a model without a price, with a message saying how to fix it', async () => {
    const user = await kit.createUser();
    const { key } = await kit.createKey(user.id);
    const answer = await call(bearer(key), 'my-private-model');
    expect(answer).toMatchObject({ status: 403, error: { code: 'model_price_unset' } });
    expect(answer.error.message).toContain('ModelRatio');
    expect(upstream.received).toHaveLength(0);
    await kit.test.context.options.set('ModelRatio', JSON.stringify({ 'my-private-model': 1 }));
    expect((await call(bearer(key), 'my-private-model')).status).toBe(200);
  });

  it('lets an administrator pin a channel with sk-KEY-CHANNELID, nobody else', async () => {
    const admin = await kit.createUser({ role: Role.admin });
    const adminKey = (await kit.createKey(admin.id)).key;
    pinned.received.length = 0;
    expect((await call(bearer(`${adminKey}-${pinnedChannelId}`))).status).toBe(200);
    expect(pinned.received).toHaveLength(1);
    const user = await kit.createUser();
    const userKey = (await kit.createKey(user.id)).key;
    expect(await call(bearer(`${userKey}-${pinnedChannelId}`))).toMatchObject({
      status: 403,
      error: { code: 'channel_pin_forbidden' },
    });
  });
});
