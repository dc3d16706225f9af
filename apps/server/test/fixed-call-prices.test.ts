import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { Role, type BuiltInPriceTable, type Log, type PriceList } from '@gatehouse/shared';
import { defaultModelPrices } from '../src/billing/default-model-prices';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';
import { createUserSession, envelope, loginAs, type Session } from './test-app';

/**
 * The ModelPrice option prices a model per call: each call is reserved and settled at exactly its price in
 * dollars × quota per dollar × group ratio, whatever its tokens, and the log row says so.
 */
let kit: RelayKit;
let upstream: OpenAIUpstream;

const FIXED = 'house-agent';
// $0.04 × 500,000 quota per dollar × group ratio 1.5
const CALL_COST = 30_000;

beforeAll(async () => {
  upstream = await startOpenAIUpstream('fixed');
  // Many tokens: a per-token price would differ from the call price.
  upstream.behaviour = { usage: { prompt: 4000, completion: 2000 } };
  kit = await startRelayKit();
  const { options } = kit.test.context;
  await options.set('GroupRatio', JSON.stringify({ default: 1.5 }));
  // dall-e-3 has a built-in per-image ratio; the call price wins over it.
  await options.set('ModelPrice', JSON.stringify({ [FIXED]: 0.04, 'dall-e-3': 0.1 }));
  await options.set('ModelRatio', JSON.stringify({ 'gpt-4o': 1 }));
  await kit.createChannel({ upstream, models: `${FIXED},dall-e-3,gpt-4o` });
});
afterAll(async () => {
  await kit.close();
  await upstream.close();
});

async function newCaller(quota = 1_000_000) {
  const user = await kit.createUser({ quota });
  const { key, id } = await kit.createKey(user.id, { isUnlimited: false, remainQuota: 1_000_000 });
  const session = await loginAs(kit.test, user.username, 'password123');
  return { user, key, keyId: id, session };
}

async function ownLogs(session: Session): Promise<Log[]> {
  await kit.settle();
  const body = envelope<Log[]>(
    await kit.test.app.inject({ url: '/api/log/self?p=0', headers: session.headers }),
  );
  expect(body.success).toBe(true);
  return body.data;
}

async function keyRemain(id: number): Promise<number> {
  const row = await kit.test.context.db
    .selectFrom('tokens')
    .select('remain_quota')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.remain_quota);
}

describe('a model priced per call', () => {
  it('charges a chat completion exactly the call price × group ratio, on the user and the key, and logs it', async () => {
    const { user, key, keyId, session } = await newCaller();
    const completion = await kit.client(key).chat.completions.create({
      model: FIXED,
      messages: [{ role: 'user', content: 'Plan my day' }],
    });
    expect(completion.usage).toMatchObject({ prompt_tokens: 4000, completion_tokens: 2000 });
    const [log] = await ownLogs(session);
    expect(log).toMatchObject({
      model_name: FIXED,
      quota: CALL_COST,
      call_price: 0.04,
      group_ratio: 1.5,
      prompt_tokens: 4000,
      completion_tokens: 2000,
    });
    expect(log.content).toContain('price per call $0.04, group ratio 1.5');
    expect(await kit.userQuota(user.id)).toBe(1_000_000 - CALL_COST);
    expect(await keyRemain(keyId)).toBe(1_000_000 - CALL_COST);
  });

  it('charges a stream the same', async () => {
    const { user, key, session } = await newCaller();
    const stream = await kit.client(key).chat.completions.create({
      model: FIXED,
      messages: [{ role: 'user', content: 'Plan my day' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    for await (const chunk of stream) void chunk;
    const [log] = await ownLogs(session);
    expect(log).toMatchObject({ quota: CALL_COST, call_price: 0.04, is_stream: true });
    expect(await kit.userQuota(user.id)).toBe(1_000_000 - CALL_COST);
  });

  it('charges an image generation one call price, not its per-image ratio', async () => {
    const { user, key, session } = await newCaller();
    await kit.client(key).images.generate({ model: 'dall-e-3', prompt: 'a lighthouse', size: '1792x1024' });
    const [log] = await ownLogs(session);
    // $0.1 × 500,000 × 1.5
    expect(log).toMatchObject({ model_name: 'dall-e-3', quota: 75_000, call_price: 0.1 });
    expect(await kit.userQuota(user.id)).toBe(1_000_000 - 75_000);
  });

  it('reserves the call price up front: a balance below it is refused before anything is sent', async () => {
    const { user, key } = await newCaller(CALL_COST - 1);
    const before = upstream.received.length;
    const error = await kit
      .client(key)
      .chat.completions.create({ model: FIXED, messages: [{ role: 'user', content: 'Hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).message).toContain('not enough');
    expect(upstream.received.length).toBe(before);
    expect(await kit.userQuota(user.id)).toBe(CALL_COST - 1);
  });

  it('shows the price per call on the pricing page, group ratio applied', async () => {
    const { session } = await newCaller();
    const list = envelope<PriceList>(
      await kit.test.app.inject({ url: '/api/pricing', headers: session.headers }),
    );
    const fixed = list.data.models.find((model) => model.model === FIXED);
    expect(fixed?.call_price).toBeCloseTo(0.06, 10);
    expect(list.data.models.find((model) => model.model === 'gpt-4o')?.call_price).toBeNull();
  });
});

describe("ModelPrice saved the way one-api's console saves a ratio option", () => {
  it('takes a pretty-printed JSON text through PUT /api/option/ and refuses a negative price, naming it', async () => {
    const root = await createUserSession(kit.test, { role: Role.root });
    const put = (value: string) =>
      kit.test.app.inject({
        method: 'PUT',
        url: '/api/option/',
        headers: root.headers,
        payload: { key: 'ModelPrice', value },
      });
    const refused = envelope(await put(JSON.stringify({ [FIXED]: -1 }, null, 2)));
    expect(refused).toMatchObject({
      success: false,
      message: `Model price: the value of "${FIXED}" must be a number not less than 0`,
    });
    const saved = envelope(await put(JSON.stringify({ [FIXED]: 0.04, 'dall-e-3': 0.1 }, null, 2)));
    expect(saved.success).toBe(true);
    const options = envelope<Array<{ key: string; value: string }>>(
      await kit.test.app.inject({ url: '/api/option/', headers: root.headers }),
    );
    const stored = options.data.find((entry) => entry.key === 'ModelPrice')?.value ?? '';
    expect(JSON.parse(stored)).toEqual({ [FIXED]: 0.04, 'dall-e-3': 0.1 });
  });
});

describe('GET /api/pricing/built-in', () => {
  it('lists the built-in prices with what the options override, for admins', async () => {
    const admin = await createUserSession(kit.test, { role: Role.admin });
    const body = envelope<BuiltInPriceTable>(
      await kit.test.app.inject({ url: '/api/pricing/built-in', headers: admin.headers }),
    );
    expect(body.success).toBe(true);
    expect(body.data.usd_per_million_at_ratio_1).toBe(2);
    const rows = new Map(body.data.models.map((row) => [row.model, row]));
    expect(rows.size).toBeGreaterThan(Object.keys(defaultModelPrices).length);
    const builtIn = defaultModelPrices['gpt-4o'];
    expect(rows.get('gpt-4o')).toMatchObject({
      built_in: {
        model_ratio: builtIn.modelRatio,
        completion_ratio: builtIn.completionRatio,
        call_price: null,
      },
      effective: { model_ratio: 1, completion_ratio: builtIn.completionRatio },
      overridden_by: ['ModelRatio'],
      is_priced: true,
    });
    expect(rows.get(FIXED)).toMatchObject({
      built_in: null,
      effective: { call_price: 0.04 },
      overridden_by: ['ModelPrice'],
    });
    expect(rows.get('claude-sonnet-4-5')?.overridden_by).toEqual([]);
  });

  it('is refused to common users and to callers without a session', async () => {
    const member = await createUserSession(kit.test);
    expect(
      (await kit.test.app.inject({ url: '/api/pricing/built-in', headers: member.headers })).statusCode,
    ).toBe(403);
    expect((await kit.test.app.inject({ url: '/api/pricing/built-in' })).statusCode).toBe(401);
  });
});
