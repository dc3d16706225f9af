import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChannelType } from '@gatehouse/shared';
import { startAnthropicStandIn, type AnthropicStandIn } from './support/anthropic-stand-in';
import { GEMINI_STAND_IN_KEY, startGeminiStandIn, type GeminiStandIn } from './support/gemini-stand-in';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';

/**
 * A body nested thousands of levels deep (a tool schema, here) is refused 400 in the client's protocol before
 * anything reads it: JSON.parse takes any depth, but counting its tokens, translating it and writing it out
 * again recurse, and ran out of stack (500, or a 502 that counted against the channel).
 */
let kit: RelayKit;
let anthropic: AnthropicStandIn;
let gemini: GeminiStandIn;
let openAI: OpenAIUpstream;

beforeAll(async () => {
  anthropic = await startAnthropicStandIn({ name: 'claude' });
  gemini = await startGeminiStandIn();
  openAI = await startOpenAIUpstream('gpt');
  kit = await startRelayKit();
  await kit.createChannel({
    type: ChannelType.anthropic,
    baseUrl: anthropic.url,
    key: anthropic.apiKey,
    models: 'claude-haiku-4-5',
  });
  await kit.createChannel({
    type: ChannelType.gemini,
    baseUrl: gemini.url,
    key: GEMINI_STAND_IN_KEY,
    models: 'gemini-2.5-flash',
  });
  await kit.createChannel({ upstream: openAI, models: 'gpt-4o-mini' });
});
afterAll(async () => {
  await kit.close();
  await anthropic.close();
  await gemini.close();
  await openAI.close();
});
beforeEach(async () => {
  anthropic.received.length = 0;
  gemini.requests.length = 0;
  openAI.received.length = 0;
  await kit.test.context.options.set('RetryTimes', '0');
});

/** A JSON schema whose properties nest `levels` deep, written as text: no recursion in the test either. */
const nestedSchema = (levels: number) =>
  '{"type":"object","properties":{"a":'.repeat(levels) + '{"type":"string"}' + '}}'.repeat(levels);

const requests = {
  'an OpenAI chat client of a Gemini model': (schema: string) => ({
    path: '/v1/chat/completions',
    body:
      '{"model":"gemini-2.5-flash","messages":[{"role":"user","content":"hi"}],' +
      `"tools":[{"type":"function","function":{"name":"deep","parameters":${schema}}}]}`,
  }),
  'an Anthropic client of a Claude model': (schema: string) => ({
    path: '/v1/messages',
    body:
      '{"model":"claude-haiku-4-5","max_tokens":20,"messages":[{"role":"user","content":"hi"}],' +
      `"tools":[{"name":"deep","input_schema":${schema}}]}`,
  }),
  'a Gemini client of a Gemini model': (schema: string) => ({
    path: '/v1beta/models/gemini-2.5-flash:generateContent',
    body:
      '{"contents":[{"role":"user","parts":[{"text":"hi"}]}],' +
      `"tools":[{"functionDeclarations":[{"name":"deep","parametersJsonSchema":${schema}}]}]}`,
  }),
  'a Responses client of a GPT model': (schema: string) => ({
    path: '/v1/responses',
    body: `{"model":"gpt-4o-mini","input":"hi","tools":[{"type":"function","name":"deep","parameters":${schema}}]}`,
  }),
};

async function send(key: string, { path, body }: { path: string; body: string }) {
  return fetch(`${kit.gatewayUrl}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'x-goog-api-key': key,
      'content-type': 'application/json',
    },
    body,
  });
}

describe.each(Object.entries(requests))('%s', (_client, request) => {
  it('is refused 400 in its protocol when the body nests thousands of levels deep, charging nothing', async () => {
    const user = await kit.createUser({ quota: 500_000 });
    const { key } = await kit.createKey(user.id);
    const response = await send(key, request(nestedSchema(3000)));
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toContain('nested too deeply');
    expect(anthropic.received.length + gemini.requests.length + openAI.received.length).toBe(0);
    await kit.settle();
    expect(await kit.userQuota(user.id)).toBe(500_000);
  });

  it('still serves a schema nested a hundred levels deep', async () => {
    const { key } = await kit.createKey((await kit.createUser()).id);
    const response = await send(key, request(nestedSchema(100)));
    expect(response.status).toBe(200);
  });
});
