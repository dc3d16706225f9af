import { createAnthropic } from '@ai-sdk/anthropic';
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChannelType } from '@gatehouse/shared';
import { startAnthropicStandIn, type AnthropicStandIn } from './support/anthropic-stand-in';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';

/**
 * The Vercel AI SDK's Anthropic provider pointed at the gateway (its base URL ends with /v1; it posts to
 * {baseURL}/messages with x-api-key), against an Anthropic channel (pass-through) and an OpenAI channel
 * (translated).
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
});
afterAll(async () => {
  await kit.close();
  await anthropic.close();
  await openAI.close();
});
beforeEach(() => {
  anthropic.behaviour = {};
  anthropic.received.length = 0;
  openAI.behaviour = {};
  openAI.received.length = 0;
});

async function newProvider() {
  const user = await kit.createUser({ quota: 10_000_000 });
  const { key } = await kit.createKey(user.id);
  return createAnthropic({ apiKey: key, baseURL: `${kit.gatewayUrl}/v1` });
}

describe.each([
  { lane: 'an Anthropic channel (pass-through)', model: CLAUDE, words: 'Hello from claude' },
  { lane: 'an OpenAI channel (translated)', model: GPT, words: 'Hello from gpt' },
])('the AI SDK’s Anthropic provider on $lane', ({ model, words }) => {
  it('generateText answers the text and the usage', async () => {
    const anthropicProvider = await newProvider();
    anthropic.behaviour = { usage: { input_tokens: 14, output_tokens: 3 } };
    openAI.behaviour = { usage: { prompt: 14, completion: 3 } };
    const result = await generateText({
      model: anthropicProvider(model),
      system: 'Be brief.',
      prompt: 'Say hello',
      maxOutputTokens: 64,
      maxRetries: 0,
    });
    expect(result.text).toBe(words);
    expect(result.finishReason).toBe('stop');
    expect(result.usage).toMatchObject({ inputTokens: 14, outputTokens: 3 });
  });

  it('streamText streams the text and ends with the usage', async () => {
    const anthropicProvider = await newProvider();
    anthropic.behaviour = { usage: { input_tokens: 14, output_tokens: 3 } };
    openAI.behaviour = { usage: { prompt: 14, completion: 3 } };
    const result = streamText({
      model: anthropicProvider(model),
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
    const anthropicProvider = await newProvider();
    const cities: string[] = [];
    const result = await generateText({
      model: anthropicProvider(model),
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
    // The second step carries the result: as a tool_result block, or translated into a tool message.
    const second = JSON.stringify((model === CLAUDE ? anthropic : openAI).received[1].json);
    expect(second).toContain(model === CLAUDE ? '"type":"tool_result"' : '"role":"tool"');
    expect(second).toContain('21°C in Paris');
  });
});
