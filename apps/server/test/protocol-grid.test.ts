import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { ChannelType, LogType, type InboundProtocol } from '@gatehouse/shared';
import { startAnthropicStandIn } from './support/anthropic-stand-in';
import { STAND_IN_KEY, startBedrockStandIn } from './support/bedrock-stand-in';
import { startCohereStandIn } from './support/cohere-stand-in';
import { GEMINI_STAND_IN_KEY, startGeminiStandIn } from './support/gemini-stand-in';
import { startGoogleTokenStandIn } from './support/google-token-stand-in';
import { startOpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';
import { startVertexStandIn } from './support/vertex-stand-in';

/**
 * Any inbound protocol reaches any channel: each client SDK (OpenAI chat, OpenAI Responses, Anthropic Messages,
 * Gemini) × each channel kind with a local stand-in, one plain and one streamed request per cell. The text
 * arrives, the user is billed exactly what the log rows say, and each row records the protocol that came in.
 */

interface Channel {
  kind: string;
  /** what the channel's stand-in answers, in part */
  words: RegExp;
}

/** A client SDK asking `model` to say hello: the text, plain or streamed. */
type Ask = (key: string, model: string, isStream: boolean) => Promise<string>;

let kit: RelayKit;
const closers: Array<() => Promise<void>> = [];

const CHANNELS: Channel[] = [
  { kind: 'openai', words: /Hello from grid/ },
  { kind: 'anthropic', words: /Hello from grid/ },
  { kind: 'gemini', words: /Hello from the Gemini stand-in/ },
  { kind: 'bedrock', words: /Hello from the stand-in/ },
  { kind: 'vertex', words: /Hello/ },
  { kind: 'cohere', words: /Hello from cohere/ },
];

const gridModel = (kind: string) => `grid-${kind}`;

async function addChannel(
  kind: string,
  channel: { type: number; baseUrl: string; key: string; upstreamModel: string },
): Promise<void> {
  await kit.createChannel({
    type: channel.type,
    baseUrl: channel.baseUrl,
    key: channel.key,
    models: gridModel(kind),
    modelMapping: { [gridModel(kind)]: channel.upstreamModel },
  });
}

beforeAll(async () => {
  kit = await startRelayKit();
  const { options } = kit.test.context;
  await options.set('RetryTimes', '0');
  const ratios = JSON.parse(options.get('ModelRatio')) as Record<string, number>;
  for (const { kind } of CHANNELS) ratios[gridModel(kind)] = 1;
  await options.set('ModelRatio', JSON.stringify(ratios));

  const openAI = await startOpenAIUpstream('grid');
  const anthropic = await startAnthropicStandIn({ name: 'grid' });
  const gemini = await startGeminiStandIn();
  const bedrock = await startBedrockStandIn();
  const google = await startGoogleTokenStandIn();
  const vertex = await startVertexStandIn({
    project: 'gatehouse-grid',
    location: 'us-east5',
    acceptedTokens: google.issued,
  });
  const cohere = await startCohereStandIn();
  closers.push(
    openAI.close,
    anthropic.close,
    gemini.close,
    bedrock.close,
    google.close,
    vertex.close,
    cohere.close,
  );
  const account = google.createServiceAccount({ projectId: 'gatehouse-grid' });

  await addChannel('openai', {
    type: ChannelType.openai,
    baseUrl: openAI.url,
    key: 'sk-grid',
    upstreamModel: 'gpt-4o-mini',
  });
  await addChannel('anthropic', {
    type: ChannelType.anthropic,
    baseUrl: anthropic.url,
    key: anthropic.apiKey,
    upstreamModel: 'claude-sonnet-4-5',
  });
  await addChannel('gemini', {
    type: ChannelType.gemini,
    baseUrl: gemini.url,
    key: GEMINI_STAND_IN_KEY,
    upstreamModel: 'gemini-2.5-flash',
  });
  await addChannel('bedrock', {
    type: ChannelType.awsClaude,
    baseUrl: bedrock.url,
    key: STAND_IN_KEY,
    upstreamModel: 'claude-3-5-sonnet-20241022',
  });
  await addChannel('vertex', {
    type: ChannelType.vertexAi,
    baseUrl: vertex.url,
    key: ['us-east5', 'gatehouse-grid', JSON.stringify(JSON.parse(account.json))].join('|'),
    upstreamModel: 'gemini-2.5-flash',
  });
  await addChannel('cohere', {
    type: ChannelType.cohere,
    baseUrl: cohere.url,
    key: cohere.apiKey,
    upstreamModel: 'command-a-03-2025',
  });
}, 120_000);
afterAll(async () => {
  await kit.close();
  await Promise.all(closers.map((close) => close()));
});

const askOpenAIChat: Ask = async (key, model, isStream) => {
  const client = kit.client(key);
  const messages = [{ role: 'user' as const, content: 'Say hello' }];
  if (!isStream) {
    const answer = await client.chat.completions.create({ model, messages, max_tokens: 64 });
    return answer.choices[0].message.content ?? '';
  }
  const stream = await client.chat.completions.create({
    model,
    messages,
    max_tokens: 64,
    stream: true,
    stream_options: { include_usage: true },
  });
  let text = '';
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
  return text;
};

const askOpenAIResponses: Ask = async (key, model, isStream) => {
  const client = kit.client(key);
  if (!isStream) return (await client.responses.create({ model, input: 'Say hello' })).output_text;
  const stream = await client.responses.create({ model, input: 'Say hello', stream: true });
  let text = '';
  for await (const event of stream) if (event.type === 'response.output_text.delta') text += event.delta;
  return text;
};

const askAnthropic: Ask = async (key, model, isStream) => {
  const client = new Anthropic({ apiKey: key, baseURL: kit.gatewayUrl, maxRetries: 0 });
  const request = { model, max_tokens: 64, messages: [{ role: 'user' as const, content: 'Say hello' }] };
  if (isStream) return client.messages.stream(request).finalText();
  const answer = await client.messages.create(request);
  return answer.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
};

const askGemini: Ask = async (key, model, isStream) => {
  const client = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: kit.gatewayUrl } });
  if (!isStream) return (await client.models.generateContent({ model, contents: 'Say hello' })).text ?? '';
  let text = '';
  for await (const chunk of await client.models.generateContentStream({ model, contents: 'Say hello' })) {
    text += chunk.text ?? '';
  }
  return text;
};

const INBOUND: Array<{ protocol: InboundProtocol; ask: Ask }> = [
  { protocol: 'openai-chat', ask: askOpenAIChat },
  { protocol: 'openai-responses', ask: askOpenAIResponses },
  { protocol: 'anthropic-messages', ask: askAnthropic },
  { protocol: 'gemini', ask: askGemini },
];

const QUOTA = 10_000_000;

describe.concurrent.each(INBOUND)('$protocol clients', ({ protocol, ask }) => {
  it.for(CHANNELS)(
    'reach the $kind channel, plain and streamed, billed and logged',
    async (channel, { expect }) => {
      const user = await kit.createUser({ quota: QUOTA });
      const { key } = await kit.createKey(user.id);
      const model = gridModel(channel.kind);

      expect(await ask(key, model, false)).toMatch(channel.words);
      expect(await ask(key, model, true)).toMatch(channel.words);

      await kit.settle();
      const logs = await kit.test.context.db
        .selectFrom('logs')
        .select(['quota', 'inbound_protocol', 'is_stream', 'model_name'])
        .where('user_id', '=', user.id)
        .where('type', '=', LogType.consume)
        .orderBy('id')
        .execute();
      expect(logs).toHaveLength(2);
      expect(logs.map((row) => row.inbound_protocol)).toEqual([protocol, protocol]);
      expect(logs.map((row) => row.model_name)).toEqual([model, model]);
      const billed = logs.reduce((sum, row) => sum + Number(row.quota), 0);
      expect(billed).toBeGreaterThan(0);
      expect(QUOTA - (await kit.userQuota(user.id))).toBe(billed);
      const { used_quota: usedQuota } = await kit.test.context.db
        .selectFrom('users')
        .select('used_quota')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(Number(usedQuota)).toBe(billed);
    },
  );
});
