import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';

/**
 * GET /v1/models and /v1/models/{id} read with `@anthropic-ai/sdk` (which sends anthropic-version): the
 * key's models in Anthropic's shape, paged by the SDK's own after_id cursor; OpenAI clients keep theirs.
 */
let kit: RelayKit;
let upstream: OpenAIUpstream;
const MODELS = ['claude-haiku-4-5', 'claude-opus-4-1', 'claude-sonnet-4-5', 'gpt-4o'];

beforeAll(async () => {
  upstream = await startOpenAIUpstream('alpha');
  kit = await startRelayKit();
  await kit.createChannel({ upstream, models: MODELS.join(',') });
});
afterAll(async () => {
  await kit.close();
  await upstream.close();
});

async function newKey(models = ''): Promise<string> {
  const user = await kit.createUser();
  return (await kit.createKey(user.id, { models })).key;
}

const anthropicClient = (key: string) =>
  new Anthropic({ apiKey: key, baseURL: kit.gatewayUrl, maxRetries: 0 });

describe('GET /v1/models for Anthropic clients', () => {
  it('lists the key’s models as ModelInfo and pages with the SDK', async () => {
    const client = anthropicClient(await newKey());
    const page = await client.models.list();
    expect(page.data.map((model) => model.id)).toEqual(MODELS);
    expect(page.data[0]).toMatchObject({ type: 'model', id: MODELS[0], display_name: MODELS[0] });
    expect(Number.isNaN(Date.parse(page.data[0].created_at))).toBe(false);
    expect(page.has_more).toBe(false);

    const paged: string[] = [];
    for await (const model of client.models.list({ limit: 1 })) paged.push(model.id);
    expect(paged).toEqual(MODELS);

    const before = await client.models.list({ limit: 2, before_id: 'claude-sonnet-4-5' });
    expect(before.data.map((model) => model.id)).toEqual(['claude-haiku-4-5', 'claude-opus-4-1']);
  });

  it('retrieves one model, and answers an unknown or forbidden one 404 in Anthropic’s shape', async () => {
    const client = anthropicClient(await newKey('claude-haiku-4-5'));
    expect(await client.models.retrieve('claude-haiku-4-5')).toMatchObject({
      type: 'model',
      id: 'claude-haiku-4-5',
    });
    const missing = await client.models.retrieve('gpt-4o').catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(Anthropic.NotFoundError);
    expect((missing as InstanceType<typeof Anthropic.NotFoundError>).error).toMatchObject({ type: 'error' });
  });

  it('answers a bad key with the SDK’s AuthenticationError', async () => {
    const client = anthropicClient('sk-not-a-key');
    await expect(client.models.list()).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
  });

  it('keeps the OpenAI shape for OpenAI clients', async () => {
    const list = await kit.client(await newKey()).models.list();
    expect(list.data[0]).toMatchObject({ object: 'model', id: MODELS[0] });
  });
});
