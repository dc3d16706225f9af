import { createOpenAI } from '@ai-sdk/openai';
import { generateText, jsonSchema, stepCountIs, streamText, tool, type LanguageModel } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChannelType } from '@gatehouse/shared';
import { startAnthropicStandIn, type AnthropicStandIn } from './support/anthropic-stand-in';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';

/**
 * The Vercel AI SDK's OpenAI provider pointed at the gateway (base URL …/v1, Bearer key): `provider.chat(model)`
 * posts to /v1/chat/completions, `provider(model)` to /v1/responses (the provider's default since its 2.0),
 * each against an OpenAI channel and an Anthropic channel (translated).
 */
let kit: RelayKit;
let anthropic: AnthropicStandIn;
let openAI: OpenAIUpstream;

const CLAUDE = 'claude-haiku-4-5';
const GPT = 'gpt-4o-mini';

beforeAll(async () => {
  anthropic = await startAnthropicStandIn({ name: 'claude' });
  openAI = await startOpenAIUpstream('gpt');
  kit = await startRelayKit();
  await kit.createChannel({
    type: ChannelType.anthropic,
    baseUrl: anthropic.url,
    key: anthropic.apiKey,
    models: CLAUDE,
  });
  await kit.createChannel({ upstream: openAI, models: GPT });
}, 120_000);
afterAll(async () => {
  await kit.close();
  await anthropic.close();
  await openAI.close();
});
beforeEach(() => {
  anthropic.behaviour = { usage: { input_tokens: 14, output_tokens: 3 } };
  anthropic.received.length = 0;
  openAI.behaviour = { usage: { prompt: 14, completion: 3 } };
  openAI.received.length = 0;
});

type Api = 'chat' | 'responses';

async function newModel(api: Api, model: string): Promise<{ model: LanguageModel; userId: number }> {
  const user = await kit.createUser({ quota: 10_000_000 });
  const { key } = await kit.createKey(user.id);
  const provider = createOpenAI({ apiKey: key, baseURL: `${kit.gatewayUrl}/v1` });
  return { model: api === 'chat' ? provider.chat(model) : provider(model), userId: user.id };
}

const lanes = [
  { lane: 'an OpenAI channel', model: GPT, words: 'Hello from gpt' },
  { lane: 'an Anthropic channel (translated)', model: CLAUDE, words: 'Hello from claude' },
];
const cases = (['chat', 'responses'] as const).flatMap((api) => lanes.map((lane) => ({ api, ...lane })));

describe.each(cases)('the AI SDK’s OpenAI provider ($api API) on $lane', ({ api, model, words }) => {
  it('generateText answers the text and the usage; one log row of the right protocol bills the user', async () => {
    const { model: languageModel, userId } = await newModel(api, model);
    const before = await kit.userQuota(userId);
    const result = await generateText({
      model: languageModel,
      system: 'Be brief.',
      prompt: 'Say hello',
      maxOutputTokens: 64,
      maxRetries: 0,
    });
    expect(result.text).toBe(words);
    expect(result.finishReason).toBe('stop');
    expect(result.usage).toMatchObject({ inputTokens: 14, outputTokens: 3 });
    await kit.settle();
    const logs = await kit.test.context.db
      .selectFrom('logs')
      .select(['quota', 'inbound_protocol'])
      .where('user_id', '=', userId)
      .execute();
    expect(logs).toMatchObject([{ inbound_protocol: api === 'chat' ? 'openai-chat' : 'openai-responses' }]);
    expect(logs[0].quota).toBeGreaterThan(0);
    expect(before - (await kit.userQuota(userId))).toBe(logs[0].quota);
  });

  it('streamText streams the text and ends with the usage', async () => {
    const { model: languageModel } = await newModel(api, model);
    const result = streamText({
      model: languageModel,
      prompt: 'Say hello',
      maxOutputTokens: 64,
      maxRetries: 0,
    });
    const pieces: string[] = [];
    for await (const piece of result.textStream) pieces.push(piece);
    expect(pieces.join('')).toBe(words);
    expect(pieces.length).toBeGreaterThan(1);
    expect(await result.finishReason).toBe('stop');
    expect(await result.usage).toMatchObject({ inputTokens: 14, outputTokens: 3 });
  });

  it('calls a tool and sends its result back in the next step', async () => {
    const { model: languageModel } = await newModel(api, model);
    const cities: string[] = [];
    const result = await generateText({
      model: languageModel,
      prompt: 'What is the weather in Paris?',
      maxOutputTokens: 64,
      maxRetries: 0,
      stopWhen: stepCountIs(2),
      tools: {
        get_weather: tool({
          description: 'The weather of a city',
          inputSchema: jsonSchema<{ city: string }>({
            type: 'object',
            properties: { city: { type: 'string' } },
            required: ['city'],
          }),
          execute: async ({ city }) => {
            cities.push(city);
            return `21°C in ${city}`;
          },
        }),
      },
    });
    expect(cities[0]).toBe('Paris');
    expect(result.steps[0].toolCalls).toMatchObject([{ toolName: 'get_weather', input: { city: 'Paris' } }]);
    expect(result.steps).toHaveLength(2);
    // The second step carries the result, in the channel's own shape.
    const second = JSON.stringify((model === CLAUDE ? anthropic : openAI).received[1].json);
    expect(second).toContain(model === CLAUDE ? '"type":"tool_result"' : '"role":"tool"');
    expect(second).toContain('21°C in Paris');
  });
});
