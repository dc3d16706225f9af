import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChannelType } from '@gatehouse/shared';
import { GEMINI_STAND_IN_KEY, startGeminiStandIn, type GeminiStandIn } from './support/gemini-stand-in';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';

/**
 * The Vercel AI SDK's Google provider pointed at the gateway (its base URL ends with /v1beta; it posts to
 * {baseURL}/models/{model}:generateContent, and :streamGenerateContent?alt=sse, with x-goog-api-key), against
 * a Gemini channel (pass-through) and an OpenAI channel (translated).
 */
let kit: RelayKit;
let gemini: GeminiStandIn;
let openAI: OpenAIUpstream;

const GEMINI = 'gemini-2.5-flash';
const GPT = 'gpt-4o-mini';

beforeAll(async () => {
  gemini = await startGeminiStandIn();
  openAI = await startOpenAIUpstream('gpt');
  kit = await startRelayKit();
  await kit.createChannel({
    type: ChannelType.gemini,
    baseUrl: gemini.url,
    key: GEMINI_STAND_IN_KEY,
    models: GEMINI,
  });
  await kit.createChannel({ upstream: openAI, models: GPT });
}, 120_000);
afterAll(async () => {
  await kit.close();
  await gemini.close();
  await openAI.close();
});
beforeEach(async () => {
  gemini.behaviour = {};
  gemini.requests.length = 0;
  openAI.behaviour = { usage: { prompt: 14, completion: 3 } };
  openAI.received.length = 0;
  await kit.test.context.options.set('RetryTimes', '0');
});

async function newProvider() {
  const user = await kit.createUser({ quota: 10_000_000 });
  const { key } = await kit.createKey(user.id);
  return createGoogleGenerativeAI({ apiKey: key, baseURL: `${kit.gatewayUrl}/v1beta` });
}

describe.each([
  {
    lane: 'a Gemini channel (pass-through)',
    model: GEMINI,
    words: `Hello from the Gemini stand-in (${GEMINI}).`,
    inputTokens: 4,
  },
  { lane: 'an OpenAI channel (translated)', model: GPT, words: 'Hello from gpt', inputTokens: 14 },
])('the AI SDK’s Google provider on $lane', ({ model, words, inputTokens }) => {
  it('generateText answers the text and the usage', async () => {
    const google = await newProvider();
    const result = await generateText({
      model: google(model),
      system: 'Be brief.',
      prompt: 'Say hello',
      maxOutputTokens: 64,
      maxRetries: 0,
    });
    expect(result.text).toBe(words);
    expect(result.finishReason).toBe('stop');
    expect(result.usage).toMatchObject({ inputTokens });
  });

  it('streamText streams the text and ends with the usage', async () => {
    const google = await newProvider();
    const result = streamText({
      model: google(model),
      system: 'Be brief.',
      prompt: 'Say hello',
      maxOutputTokens: 64,
      maxRetries: 0,
    });
    const pieces: string[] = [];
    for await (const piece of result.textStream) pieces.push(piece);
    expect(pieces.join('')).toBe(words);
    expect(pieces.length).toBeGreaterThan(1);
    expect(await result.finishReason).toBe('stop');
    expect(await result.usage).toMatchObject({ inputTokens });
  });

  it('calls a tool and sends its result back in the next step', async () => {
    const google = await newProvider();
    const cities: string[] = [];
    const result = await generateText({
      model: google(model),
      prompt: 'What is the weather in Paris?',
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
    // The second step carries the result: as a functionResponse part, or translated into a tool message.
    const second = JSON.stringify(model === GEMINI ? gemini.requests[1].body : openAI.received[1].json);
    expect(second).toContain(model === GEMINI ? '"functionResponse"' : '"role":"tool"');
    expect(second).toContain('21°C in Paris');
  });
});
