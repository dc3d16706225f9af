import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelType, type Log } from '@gatehouse/shared';
import { startAnthropicStandIn, type AnthropicStandIn } from './support/anthropic-stand-in';
import { startRelayKit, type RelayKit } from './support/relay-kit';
import { envelope, loginAs } from './test-app';

/**
 * A request through an Anthropic channel is billed by its itemised usage — fresh input, cache reads at a
 * tenth, cache writes at 1.25, completion — and its log entry, as the log APIs answer it, carries every count
 * and ratio, so the charge can be recomputed by hand, and the protocol the client spoke.
 */
let kit: RelayKit;
let standIn: AnthropicStandIn;

const CLAUDE = 'claude-sonnet-4-5';

beforeAll(async () => {
  standIn = await startAnthropicStandIn({ name: 'claude' });
  kit = await startRelayKit();
  await kit.createChannel({
    type: ChannelType.anthropic,
    baseUrl: standIn.url,
    key: standIn.apiKey,
    models: CLAUDE,
  });
  await kit.test.context.options.set('GroupRatio', JSON.stringify({ default: 2 }));
  // Anthropic's input_tokens counts only the fresh part of the prompt.
  standIn.behaviour = {
    usage: {
      input_tokens: 1200,
      output_tokens: 800,
      cache_creation_input_tokens: 500,
      cache_read_input_tokens: 3000,
    },
  };
});
afterAll(async () => {
  await kit.close();
  await standIn.close();
});

// (1,200 + 3,000 × 0.1 + 500 × 1.25 + 800 × 5) × 1.5 × 2 = 18,375
const EXPECTED_COST = 18_375;

async function newUser() {
  const user = await kit.createUser({ quota: 10_000_000 });
  const { key } = await kit.createKey(user.id, { isUnlimited: false, remainQuota: 1_000_000 });
  const session = await loginAs(kit.test, user.username, 'password123');
  return { user, key, session };
}

async function ownLogs(headers: Record<string, string>): Promise<Log[]> {
  await kit.settle();
  const body = envelope<Log[]>(await kit.test.app.inject({ url: '/api/log/self?p=0', headers }));
  expect(body.success).toBe(true);
  return body.data;
}

const itemised = {
  model_name: CLAUDE,
  prompt_tokens: 4700,
  cache_read_tokens: 3000,
  cache_write_tokens: 500,
  completion_tokens: 800,
  reasoning_tokens: 0,
  model_ratio: 1.5,
  completion_ratio: 5,
  cache_read_ratio: 0.1,
  cache_write_ratio: 1.25,
  group_ratio: 2,
  quota: EXPECTED_COST,
};

describe('itemised billing through an Anthropic channel', () => {
  it('bills an OpenAI SDK chat completion by the cache formula and logs every term', async () => {
    const { user, key, session } = await newUser();
    const completion = await kit.client(key).chat.completions.create({
      model: CLAUDE,
      messages: [{ role: 'user', content: 'Say hello' }],
      max_tokens: 1000,
    });
    expect(completion.usage).toMatchObject({ prompt_tokens: 4700, completion_tokens: 800 });
    const [log] = await ownLogs(session.headers);
    expect(log).toMatchObject({ ...itemised, inbound_protocol: 'openai-chat', is_stream: false });
    expect(log.request_id).not.toBe('');
    expect(await kit.userQuota(user.id)).toBe(10_000_000 - EXPECTED_COST);
    // Recomputed by hand from the log entry alone.
    const fresh = log.prompt_tokens - log.cache_read_tokens - log.cache_write_tokens;
    const weighted =
      fresh +
      log.cache_read_tokens * log.cache_read_ratio +
      log.cache_write_tokens * log.cache_write_ratio +
      log.completion_tokens * log.completion_ratio;
    expect(Math.ceil(weighted * log.model_ratio * log.group_ratio)).toBe(log.quota);
  });

  it('bills a stream alike', async () => {
    const { key, session } = await newUser();
    const stream = await kit.client(key).chat.completions.create({
      model: CLAUDE,
      messages: [{ role: 'user', content: 'Say hello' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    for await (const chunk of stream) void chunk;
    const [log] = await ownLogs(session.headers);
    expect(log).toMatchObject({ ...itemised, inbound_protocol: 'openai-chat', is_stream: true });
  });

  it('records that an Anthropic client came in through /v1/messages', async () => {
    const { key, session } = await newUser();
    const response = await fetch(`${kit.gatewayUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({
        model: CLAUDE,
        max_tokens: 1000,
        messages: [{ role: 'user', content: 'Say hello' }],
      }),
    });
    expect(response.status).toBe(200);
    const [log] = await ownLogs(session.headers);
    expect(log).toMatchObject({ ...itemised, inbound_protocol: 'anthropic-messages' });
  });

  it('records the Responses API and the Gemini API as the protocols they are', async () => {
    const { key, session } = await newUser();
    await kit.client(key).responses.create({ model: CLAUDE, input: 'Say hello', max_output_tokens: 1000 });
    expect((await ownLogs(session.headers))[0]).toMatchObject({
      ...itemised,
      inbound_protocol: 'openai-responses',
    });
    const response = await fetch(`${kit.gatewayUrl}/v1beta/models/${CLAUDE}:generateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': key },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Say hello' }] }] }),
    });
    expect(response.status).toBe(200);
    expect((await ownLogs(session.headers))[0]).toMatchObject({ ...itemised, inbound_protocol: 'gemini' });
  });
});
