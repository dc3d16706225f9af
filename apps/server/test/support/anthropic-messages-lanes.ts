import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { ChannelType } from '@gatehouse/shared';
import { startAnthropicStandIn, type AnthropicStandIn } from './anthropic-stand-in';
import { startOpenAIUpstream, type OpenAIUpstream } from './openai-upstream';
import { startRelayKit, type RelayKit } from './relay-kit';

/**
 * The gateway of the /v1/messages tests, on both lanes: a Claude model on an Anthropic channel (the Anthropic
 * stand-in; the client's body passes through) and a GPT model on an OpenAI channel (the OpenAI stand-in;
 * translated through the canonical types and back). A test file calls useAnthropicMessagesLanes() at its top
 * level; `kit`, `anthropic` and `openAI` are set before its first test.
 */
export let kit: RelayKit;
export let anthropic: AnthropicStandIn;
export let openAI: OpenAIUpstream;

export const CLAUDE = 'claude-haiku-4-5';
export const GPT = 'gpt-4o-mini';

/**
 * Starts the stand-ins and the gateway before the file's tests and closes them after; before each test,
 * forgets the stand-ins' behaviour and requests and turns retries off.
 */
export function useAnthropicMessagesLanes(): void {
  beforeAll(async () => {
    anthropic = await startAnthropicStandIn({ name: 'claude' });
    openAI = await startOpenAIUpstream('gpt');
    kit = await startRelayKit();
    await kit.createChannel({
      type: ChannelType.anthropic,
      baseUrl: anthropic.url,
      key: anthropic.apiKey,
      models: `${CLAUDE},claude-alias`,
      modelMapping: { 'claude-alias': 'claude-haiku-4-5-20251001' },
    });
    await kit.createChannel({ upstream: openAI, models: GPT });
    await kit.test.context.options.set(
      'ModelRatio',
      JSON.stringify({ [CLAUDE]: 0.5, 'claude-alias': 0.5, 'claude-retry-model': 0.5, [GPT]: 0.075 }),
    );
  });
  afterAll(async () => {
    await kit.close();
    await anthropic.close();
    await openAI.close();
  });
  beforeEach(async () => {
    anthropic.behaviour = {};
    anthropic.received.length = 0;
    openAI.behaviour = {};
    openAI.received.length = 0;
    await kit.test.context.options.set('RetryTimes', '0');
  });
}

/** What the SDK sent, byte for byte: its fetch records the bodies. */
export interface SentRequest {
  url: string;
  headers: Headers;
  body: string;
}

export async function newClient(options: { quota?: number; defaultHeaders?: Record<string, string> } = {}) {
  const user = await kit.createUser({ quota: options.quota ?? 10_000_000 });
  const { key } = await kit.createKey(user.id);
  const sent: SentRequest[] = [];
  const client = new Anthropic({
    apiKey: key,
    baseURL: kit.gatewayUrl,
    maxRetries: 0,
    defaultHeaders: options.defaultHeaders,
    fetch: async (url, init) => {
      sent.push({
        url: String(url),
        headers: new Headers(init?.headers),
        body: typeof init?.body === 'string' ? init.body : '',
      });
      return fetch(url, init);
    },
  });
  return { user, key, client, sent };
}

export const lastLog = () => kit.lastConsumeLog();

export const weatherTool = {
  name: 'get_weather',
  description: 'The weather of a city',
  input_schema: {
    type: 'object' as const,
    properties: { city: { type: 'string' } },
    required: ['city'],
  },
};

export const lanes = [
  { lane: 'an Anthropic channel (pass-through)', model: CLAUDE, isNative: true },
  { lane: 'an OpenAI channel (translated)', model: GPT, isNative: false },
] as const;
