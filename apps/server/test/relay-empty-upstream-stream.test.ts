import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChannelType } from '@gatehouse/shared';
import { startRelayKit, type RelayKit } from './support/relay-kit';
import { startScriptedUpstream, type ScriptedUpstream } from './support/scripted-upstream';

/**
 * A streamed answer that holds no event at all (a 200 with an empty body, only OpenAI's `[DONE]`, or a proxy's
 * HTML page): nothing was produced, so it is a bad upstream answer, refunded, in every protocol and on both
 * lanes, never an empty success that is billed.
 */
let kit: RelayKit;
let upstream: ScriptedUpstream;
let answer: (response: ServerResponse) => void;

beforeAll(async () => {
  upstream = await startScriptedUpstream(
    (response) => answer(response),
    () => undefined,
  );
  kit = await startRelayKit();
  await kit.createChannel({ baseUrl: upstream.origin, models: 'gpt-4o-mini' });
  await kit.createChannel({
    type: ChannelType.anthropic,
    baseUrl: upstream.origin,
    key: 'sk-ant-stand-in',
    models: 'claude-haiku-4-5',
  });
  await kit.createChannel({
    type: ChannelType.gemini,
    baseUrl: upstream.origin,
    key: 'AIzaSyStandIn',
    models: 'gemini-2.5-flash',
  });
});
afterAll(async () => {
  await kit.close();
  await upstream.close();
});
beforeEach(async () => {
  await kit.test.context.options.set('RetryTimes', '0');
  // Each case fails its channel on purpose: no circuit may open between them.
  await kit.test.context.options.set('CircuitBreakerThreshold', '0');
});

const hello = [{ role: 'user', content: 'hi' }];

const ingresses = {
  chat: (model: string) => ({
    path: '/v1/chat/completions',
    body: { model, messages: hello, max_tokens: 20, stream: true },
  }),
  messages: (model: string) => ({
    path: '/v1/messages',
    body: { model, messages: hello, max_tokens: 20, stream: true },
  }),
  gemini: (model: string) => ({
    path: `/v1beta/models/${model}:streamGenerateContent?alt=sse`,
    body: {
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      generationConfig: { maxOutputTokens: 20 },
    },
  }),
};

const answers: Array<[string, (response: ServerResponse) => void]> = [
  [
    'an empty event stream',
    (response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end();
    },
  ],
  [
    'an event stream of nothing but its end ([DONE])',
    (response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end('data: [DONE]\n\n');
    },
  ],
  [
    'an HTML page',
    (response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html><body>Please wait while we check your browser</body></html>');
    },
  ],
];

describe.each(answers)('%s answered to a stream request', (_answer, script) => {
  it.each([
    ['chat', 'gpt-4o-mini', 'pass-through'],
    ['messages', 'claude-haiku-4-5', 'pass-through'],
    ['gemini', 'gemini-2.5-flash', 'pass-through'],
    ['chat', 'gemini-2.5-flash', 'translated'],
    ['messages', 'gpt-4o-mini', 'translated'],
    ['gemini', 'gpt-4o-mini', 'translated'],
  ] as Array<[keyof typeof ingresses, string, string]>)(
    'is a 502 for a %s client of %s (%s), with nothing charged',
    async (ingress, model) => {
      answer = script;
      const user = await kit.createUser({ quota: 500_000 });
      const { key } = await kit.createKey(user.id);
      const { path, body } = ingresses[ingress](model);
      const response = await fetch(`${kit.gatewayUrl}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'x-goog-api-key': key,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(502);
      const error = (await response.json()) as Record<string, { message: string }>;
      expect(error.error.message).toContain('stream was empty');
      await kit.settle();
      expect(await kit.userQuota(user.id)).toBe(500_000);
      expect(await kit.test.context.db.selectFrom('quota_reservations').select('id').execute()).toEqual([]);
    },
  );
});
