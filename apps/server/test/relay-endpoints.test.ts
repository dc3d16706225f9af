import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import OpenAI, { toFile } from 'openai';
import { ChannelType } from '@gatehouse/shared';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';

let kit: RelayKit;
let upstream: OpenAIUpstream;
let azure: OpenAIUpstream;
let userId: number;
let key: string;
let client: OpenAI;

beforeAll(async () => {
  upstream = await startOpenAIUpstream('alpha');
  azure = await startOpenAIUpstream('azure');
  kit = await startRelayKit();
  await kit.createChannel({
    upstream,
    models:
      'gpt-4o-mini,text-embedding-3-small,omni-moderation-latest,dall-e-3,dall-e-2,tts-1,whisper-1,whisper-large',
    modelMapping: { 'whisper-large': 'whisper-1' },
  });
  await kit.createChannel({
    upstream: azure,
    type: ChannelType.azure,
    models: 'gpt-35-azure',
    key: 'azure-resource-key-123',
    other: '2024-10-21',
    modelMapping: { 'gpt-35-azure': 'gpt-3.5-turbo' },
  });
  await kit.test.context.options.set(
    'ModelRatio',
    JSON.stringify({ 'whisper-large': 15, 'gpt-35-azure': 0.75 }),
  );
  const user = await kit.createUser({ quota: 10_000_000 });
  userId = user.id;
  key = (await kit.createKey(user.id)).key;
  client = kit.client(key);
});
afterAll(async () => {
  await kit.close();
  await upstream.close();
  await azure.close();
});
beforeEach(() => {
  upstream.behaviour = {};
  upstream.received.length = 0;
});

const lastLog = () => kit.lastConsumeLog();

describe('embeddings and moderations', () => {
  it('relays embeddings and bills the prompt tokens', async () => {
    upstream.behaviour = { usage: { prompt: 5000, completion: 0 } };
    const result = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['a', 'b'] });
    expect(result.data).toHaveLength(2);
    // text-embedding-3-small: $0.02 / 1M → ratio 0.01: 5000 × 0.01 = 50.
    expect(await lastLog()).toMatchObject({
      model_name: 'text-embedding-3-small',
      prompt_tokens: 5000,
      quota: 50,
    });
  });

  it('relays moderations with the default model', async () => {
    const result = await client.moderations.create({ input: 'I like turtles' });
    expect(result.results[0].flagged).toBe(false);
    expect(upstream.received[0].url).toBe('/v1/moderations');
    // The answer carries no usage: counted exactly at settlement (cl100k: "I", " like", " turtles"), not
    // with the reservation's estimate (4).
    expect(await lastLog()).toMatchObject({ model_name: 'omni-moderation-latest', prompt_tokens: 3 });
  });
});

describe('images', () => {
  it('bills dall-e-3 per image with the size multiplier', async () => {
    const result = await client.images.generate({
      model: 'dall-e-3',
      prompt: 'a cat',
      size: '1792x1024',
      n: 1,
    });
    expect(result.data?.[0].url).toBe('https://images.example/0.png');
    // $0.08 a wide standard image = 40 000 quota.
    expect((await lastLog()).quota).toBe(40_000);
  });

  it('bills dall-e-2 images actually returned', async () => {
    await client.images.generate({ model: 'dall-e-2', prompt: 'a dog', size: '256x256', n: 3 });
    // $0.016 each.
    expect((await lastLog()).quota).toBe(3 * 8000);
  });

  it('refuses a size the model does not make, before calling upstream', async () => {
    await expect(
      client.images.generate({ model: 'dall-e-3', prompt: 'x', size: '256x256' }),
    ).rejects.toMatchObject({ status: 400, param: 'size' });
    expect(upstream.received).toHaveLength(0);
  });
});

describe('audio', () => {
  it('streams speech audio and bills per character', async () => {
    const response = await client.audio.speech.create({
      model: 'tts-1',
      voice: 'alloy',
      input: 'Hello world',
    });
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.from(await response.arrayBuffer()).toString()).toBe('ID3-fake-mp3-audio');
    // tts-1: 7.5 quota per character × 11.
    expect((await lastLog()).quota).toBe(83);
  });

  it('relays transcriptions as multipart, rewriting only a mapped model', async () => {
    const file = await toFile(Buffer.from('RIFF-fake-wav'), 'speech.wav', { type: 'audio/wav' });
    const result = await client.audio.transcriptions.create({ model: 'whisper-large', file });
    expect(result.text).toBe('the quick brown fox');
    const received = upstream.received[0];
    expect(received.url).toBe('/v1/audio/transcriptions');
    expect(received.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const sent = received.body.toString('latin1');
    expect(sent).toContain('name="model"\r\n\r\nwhisper-1\r\n');
    expect(sent).toContain('RIFF-fake-wav');
    // Billed on the transcript: 4 tokens × ratio 15.
    expect(await lastLog()).toMatchObject({ model_name: 'whisper-large', completion_tokens: 4, quota: 60 });
  });

  it('relays translations with a text answer', async () => {
    const file = await toFile(Buffer.from('RIFF-fake-wav'), 'speech.wav', { type: 'audio/wav' });
    const result = await client.audio.translations.create({
      model: 'whisper-1',
      file,
      response_format: 'text',
    });
    expect(String(result)).toContain('the quick brown fox');
    expect(upstream.received[0].url).toBe('/v1/audio/translations');
  });
});

describe('Azure OpenAI channels', () => {
  it('calls the deployment URL with the api-version and api-key header', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-35-azure',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.choices[0].message.content).toBe('Hello from azure');
    const received = azure.received[0];
    expect(received.url).toBe('/openai/deployments/gpt-35-turbo/chat/completions?api-version=2024-10-21');
    expect(received.headers['api-key']).toBe('azure-resource-key-123');
    expect(received.headers.authorization).toBeUndefined();
  });
});

describe('models', () => {
  it('lists the models the key can use and answers one by name', async () => {
    const models = [];
    for await (const model of client.models.list()) models.push(model.id);
    expect(models).toContain('gpt-4o-mini');
    expect(models).toContain('gpt-35-azure');
    const one = await client.models.retrieve('gpt-4o-mini');
    expect(one).toMatchObject({ id: 'gpt-4o-mini', object: 'model', owned_by: 'OpenAI' });
    const slashed = await fetch(`${kit.gatewayUrl}/v1/models/org/some-model`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(slashed.status).toBe(404);
    expect(((await slashed.json()) as { error: { code: string } }).error.code).toBe('model_not_found');
    await expect(client.models.retrieve('no-such-model')).rejects.toMatchObject({
      status: 404,
      code: 'model_not_found',
    });
  });

  it('honours the key model list', async () => {
    const limited = kit.client((await kit.createKey(userId, { models: 'gpt-4o-mini' })).key);
    const models = [];
    for await (const model of limited.models.list()) models.push(model.id);
    expect(models).toEqual(['gpt-4o-mini']);
  });
});

describe('legacy dashboard billing', () => {
  it('answers the subscription and usage from the key quota', async () => {
    const limitedKey = (await kit.createKey(userId, { isUnlimited: false, remainQuota: 1_000_000 })).key;
    await kit.test.context.db
      .updateTable('tokens')
      .set({ used_quota: 250_000 })
      .where('key', '=', limitedKey.slice(3))
      .execute();
    for (const prefix of ['', '/v1']) {
      const subscription = await fetch(`${kit.gatewayUrl}${prefix}/dashboard/billing/subscription`, {
        headers: { authorization: `Bearer ${limitedKey}` },
      });
      expect(await subscription.json()).toMatchObject({
        object: 'billing_subscription',
        hard_limit_usd: 2.5,
      });
      const usage = await fetch(`${kit.gatewayUrl}${prefix}/dashboard/billing/usage`, {
        headers: { authorization: `Bearer ${limitedKey}` },
      });
      expect(await usage.json()).toEqual({ object: 'list', total_usage: 50 });
    }
  });
});

describe('unsupported and unknown paths', () => {
  it('answers 501 in OpenAI form for OpenAI APIs the gateway does not relay', async () => {
    for (const path of [
      '/v1/files',
      '/v1/fine_tuning/jobs',
      '/v1/assistants',
      '/v1/threads/abc/runs',
      '/v1/batches',
    ]) {
      const response = await fetch(`${kit.gatewayUrl}${path}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(response.status).toBe(501);
      const body = (await response.json()) as { error: Record<string, unknown> };
      expect(body.error).toMatchObject({
        type: 'invalid_request_error',
        code: 'not_implemented',
        param: null,
      });
      expect(String(body.error.message)).toMatch(/not supported by this gateway \(request id: \w+\)$/);
    }
  });

  it('answers unknown /v1 paths 404 in OpenAI form', async () => {
    for (const path of ['/v1/nope', '/v1/chat/nothing', '/v1']) {
      const response = await fetch(`${kit.gatewayUrl}${path}`, { method: 'POST' });
      expect(response.status).toBe(404);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('unknown_url');
      expect(body.error.message).toContain('request id');
    }
  });

  it.each([
    ['/v1/chat/completions%E0%A4%A', { error: { type: 'invalid_request_error', code: 'bad_url' } }],
    ['/v1/messages/%E0%A4%A', { type: 'error', error: { type: 'invalid_request_error' } }],
    ['/v1beta/models/gemini-%E0%A4%A:generateContent', { error: { code: 400, status: 'INVALID_ARGUMENT' } }],
  ])('answers %s, a path with a broken escape, 400 in its protocol’s form', async (path, shape) => {
    const response = await fetch(`${kit.gatewayUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string } };
    expect(body).toMatchObject(shape);
    expect(body.error.message).toContain('not a valid URL');
  });

  it('answers a broken JSON body 400 in OpenAI form', async () => {
    const response = await fetch(`${kit.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{"model": "gpt-4o-mini",',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
  });
});
