import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { ChannelType, LogType } from '@gatehouse/shared';
import { startCohereStandIn, type CohereStandIn } from './support/cohere-stand-in';
import { startDashScopeStandIn, type DashScopeStandIn } from './support/dashscope-stand-in';
import { startRelayKit, type RelayKit } from './support/relay-kit';
import { startTencentStandIn, type TencentStandIn } from './support/tencent-stand-in';

/**
 * Images and cache reads on native vendor channels, with the `openai` SDK as the client: DashScope's -vl models
 * get the image on its multimodal-generation endpoint as `{image}` parts, Hunyuan's vision models as
 * Contents with ImageUrl; a text-only model is refused with a 400 naming the vendor and the option, and nothing
 * is charged. DashScope's prompt_tokens_details.cached_tokens, Hunyuan's PromptTokensDetails.CachedTokens and
 * Cohere's cached_tokens come back as prompt_tokens_details.cached_tokens and are billed at the cache read
 * ratio.
 */
let kit: RelayKit;
let dashScope: DashScopeStandIn;
let tencent: TencentStandIn;
let cohere: CohereStandIn;

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const IMAGE = `data:image/png;base64,${PNG}`;
const MODELS = ['qwen-plus', 'qwen-vl-plus', 'hunyuan-turbo', 'hunyuan-vision', 'command-a-03-2025'];

beforeAll(async () => {
  [dashScope, tencent, cohere] = await Promise.all([
    startDashScopeStandIn(),
    startTencentStandIn(),
    startCohereStandIn(),
  ]);
  kit = await startRelayKit();
  const { options } = kit.test.context;
  const each = (value: number) => JSON.stringify(Object.fromEntries(MODELS.map((model) => [model, value])));
  await options.set('ModelRatio', each(1));
  await options.set('CompletionRatio', each(1));
  await options.set('CacheReadRatio', each(0.2));
  await kit.createChannel({
    type: ChannelType.ali,
    baseUrl: dashScope.url,
    key: dashScope.apiKey,
    models: 'qwen-plus,qwen-vl-plus',
  });
  await kit.createChannel({
    type: ChannelType.tencent,
    baseUrl: tencent.url,
    key: tencent.key,
    models: 'hunyuan-turbo,hunyuan-vision',
  });
  await kit.createChannel({
    type: ChannelType.cohere,
    baseUrl: cohere.url,
    key: cohere.apiKey,
    models: 'command-a-03-2025',
  });
});
afterAll(async () => {
  await kit.close();
  await Promise.all([dashScope.close(), tencent.close(), cohere.close()]);
});

async function newClient() {
  const user = await kit.createUser({ quota: 1_000_000 });
  const { key } = await kit.createKey(user.id);
  return { user, client: kit.client(key) };
}

const withImage = (model: string) => ({
  model,
  messages: [
    {
      role: 'user' as const,
      content: [
        { type: 'text' as const, text: 'What is in the picture?' },
        { type: 'image_url' as const, image_url: { url: IMAGE } },
      ],
    },
  ],
});

async function consumeLogs(userId: number) {
  await kit.settle();
  return kit.test.context.db
    .selectFrom('logs')
    .selectAll()
    .where('user_id', '=', userId)
    .where('type', '=', LogType.consume)
    .execute();
}

describe('images on DashScope and Hunyuan vision models', () => {
  it('DashScope: a -vl model gets the image on the multimodal endpoint as an {image} part', async () => {
    const { client } = await newClient();
    const answer = await client.chat.completions.create(withImage('qwen-vl-plus'));
    expect(answer.choices[0].message.content).toBe('Hello from qwen');
    const sent = dashScope.received.at(-1)!;
    expect(sent.path).toBe('/api/v1/services/aigc/multimodal-generation/generation');
    expect(sent.json).toMatchObject({
      model: 'qwen-vl-plus',
      input: {
        messages: [{ role: 'user', content: [{ text: 'What is in the picture?' }, { image: IMAGE }] }],
      },
    });
  });

  it('Hunyuan: a vision model gets the image as Contents with an ImageUrl', async () => {
    const { client } = await newClient();
    const answer = await client.chat.completions.create(withImage('hunyuan-vision'));
    expect(answer.choices[0].message.content).toBe('Hello from hunyuan');
    expect(tencent.received.at(-1)!.json).toMatchObject({
      Model: 'hunyuan-vision',
      Messages: [
        {
          Role: 'user',
          Contents: [
            { Type: 'text', Text: 'What is in the picture?' },
            { Type: 'image_url', ImageUrl: { Url: IMAGE } },
          ],
        },
      ],
    });
  });

  it.each([
    ['qwen-plus', 'Alibaba DashScope does not support image input: qwen-plus reads text only'],
    ['hunyuan-turbo', 'Tencent Hunyuan does not support image input: hunyuan-turbo reads text only'],
  ])(
    '%s: an image is refused with a 400 naming the vendor and the option, nothing charged',
    async (model, words) => {
      const { user, client } = await newClient();
      const called = dashScope.received.length + tencent.received.length;
      const refusal = await client.chat.completions.create(withImage(model)).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(OpenAI.BadRequestError);
      expect((refusal as InstanceType<typeof OpenAI.BadRequestError>).message).toContain(words);
      expect(dashScope.received.length + tencent.received.length).toBe(called);
      expect(await consumeLogs(user.id)).toEqual([]);
      expect(await kit.userQuota(user.id)).toBe(1_000_000);
    },
  );
});

describe('cache reads on DashScope, Hunyuan and Cohere', () => {
  it.each([
    ['qwen-plus', () => (dashScope.behaviour = { cachedTokens: 8 })],
    ['hunyuan-turbo', () => (tencent.behaviour = { cachedTokens: 8 })],
    ['command-a-03-2025', () => (cohere.behaviour = { cachedTokens: 8 })],
  ])('%s: the cached prompt tokens come back and are billed at the cache read ratio', async (model, set) => {
    set();
    const { user, client } = await newClient();
    const answer = await client.chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'Say hello' }],
    });
    // Every stand-in bills 12 prompt tokens (8 of them cached) and 5 completion tokens.
    expect(answer.usage).toMatchObject({ prompt_tokens: 12, prompt_tokens_details: { cached_tokens: 8 } });
    const [log] = await consumeLogs(user.id);
    expect(log).toMatchObject({ prompt_tokens: 12, cache_read_tokens: 8, completion_tokens: 5 });
    // (4 fresh + 8 × 0.2 + 5) × 1 × 1 = 10.6 → 11
    expect(Number(log.quota)).toBe(11);
  });
});
