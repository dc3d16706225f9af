import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAnthropicStandIn, type AnthropicStandIn } from '../../../test/support/anthropic-stand-in';
import type { ChatChunk, ChatRequest } from '../../canonical/chat';
import type { CanonicalChatInput } from '../../canonical/translation';
import { anthropicTranslator, readError } from './anthropic-adapter';

let standIn: AnthropicStandIn;

beforeAll(async () => {
  standIn = await startAnthropicStandIn({ apiKey: 'sk-ant-test' });
});
afterAll(() => standIn.close());
beforeEach(() => {
  standIn.behaviour = {};
  standIn.received.length = 0;
});

function inputOf(request: Partial<ChatRequest>, isStream = false, key = 'sk-ant-test'): CanonicalChatInput {
  return {
    channel: { baseUrl: standIn.url, key, other: '', config: {} },
    request: { model: 'claude', messages: [{ role: 'user', content: 'Hi' }], ...request },
    upstreamModel: 'claude-sonnet-4-5-20250929',
    isStream,
    clientHeaders: {},
  };
}

/** Sends what the translator builds over a real socket. */
async function send(input: CanonicalChatInput) {
  const upstream = await anthropicTranslator.buildRequest(input);
  return fetch(upstream.url, {
    method: upstream.method ?? 'POST',
    headers: upstream.headers,
    body: upstream.body,
  });
}

async function call(input: CanonicalChatInput) {
  const response = await send(input);
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
}

/** Feeds the stream to the decoder as the network delivers it. */
async function stream(input: CanonicalChatInput) {
  const response = await send(input);
  const decoder = anthropicTranslator.createStreamDecoder();
  const chunks: ChatChunk[] = [];
  for await (const piece of response.body ?? []) chunks.push(...decoder.push(Buffer.from(piece)));
  chunks.push(...decoder.end());
  return { chunks, usage: decoder.usage() };
}

describe('the Anthropic translator against a stand-in speaking the Messages protocol', () => {
  it('sends the key, the version and a valid body, and reads the JSON answer', async () => {
    const { status, body } = await call(inputOf({}));
    expect(status).toBe(200);
    const { completion, usage } = anthropicTranslator.readResponse(body);
    expect(completion.choices[0].message.content).toBe('Hello from anthropic');
    expect(usage).toEqual({ promptTokens: 12, completionTokens: 5 });
    const [received] = standIn.received;
    expect(received.url).toBe('/v1/messages');
    expect(received.headers['anthropic-version']).toBe('2023-06-01');
    expect(received.json).toMatchObject({ model: 'claude-sonnet-4-5-20250929', max_tokens: 8192 });
  });

  it('streams a thinking answer whose signature the next turn sends back', async () => {
    const { chunks, usage } = await stream(inputOf({ reasoning_effort: 'low' }, true));
    const deltas = chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta));
    const signature = deltas.find((delta) => delta.reasoning_signature)?.reasoning_signature;
    expect(signature).toBe('stand-in-signature');
    expect(deltas.map((delta) => delta.content ?? '').join('')).toBe('Hello from anthropic');
    expect(usage).toEqual({ promptTokens: 12, completionTokens: 5 });

    await call(
      inputOf({
        reasoning_effort: 'low',
        messages: [
          { role: 'user', content: 'Hi' },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'The user greets me.', signature },
              { type: 'text', text: 'Hello from anthropic' },
            ],
          },
          { role: 'user', content: 'Again' },
        ],
      }),
    );
    expect((standIn.received.at(-1)?.json?.messages as unknown[])[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'The user greets me.', signature: 'stand-in-signature' },
        { type: 'text', text: 'Hello from anthropic' },
      ],
    });
  });

  it('streams a tool call whose arguments parse', async () => {
    const tools: ChatRequest['tools'] = [
      { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } },
    ];
    const { chunks } = await stream(inputOf({ tools }, true));
    const calls = chunks.flatMap((chunk) => chunk.choices.flatMap((choice) => choice.delta.tool_calls ?? []));
    expect(calls[0]).toMatchObject({ index: 0, id: 'toolu_01StandIn', function: { name: 'get_weather' } });
    expect(JSON.parse(calls.map((call) => call.function?.arguments ?? '').join(''))).toEqual({
      city: 'Paris',
    });
    expect(chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.finish_reason)).at(-1)).toBe(
      'tool_calls',
    );
  });

  it('replays a recorded transcript', async () => {
    standIn.behaviour = { fixture: { sse: 'stream-web-search-with-cache-usage.sse' } };
    const { usage } = await stream(inputOf({}, true));
    expect(usage).toMatchObject({ cacheReadTokens: 3000, cacheWriteTokens: 1200 });
  });

  it.each([
    [401, 'authentication'],
    [429, 'rate_limit'],
    [529, 'overloaded'],
  ])('answers HTTP %i in Anthropic’s shape, read as %s', async (status, kind) => {
    standIn.behaviour = { error: { status } };
    const answer = await call(inputOf({}));
    expect(answer.status).toBe(status);
    expect(readError(answer.body, answer.status).kind).toBe(kind);
  });

  it('refuses a wrong key as Anthropic does', async () => {
    const answer = await call(inputOf({}, false, 'sk-ant-wrong'));
    expect(answer.status).toBe(401);
    expect(readError(answer.body, 401)).toMatchObject({
      message: 'invalid x-api-key',
      kind: 'authentication',
    });
  });

  it('keeps the API version its body is written for when the client names 2026-10-21, which refuses temperature', async () => {
    const input = { ...inputOf({ temperature: 0.2 }), clientHeaders: { 'anthropic-version': '2026-10-21' } };
    expect((await call(input)).status).toBe(200);
    const upstream = await anthropicTranslator.buildRequest(inputOf({ temperature: 0.2 }));
    const newer = await fetch(upstream.url, {
      method: 'POST',
      headers: { ...upstream.headers, 'anthropic-version': '2026-10-21' },
      body: upstream.body,
    });
    expect(newer.status).toBe(400);
  });

  it('ends a stream with an error event that the decoder throws after the text before it', async () => {
    standIn.behaviour = { streamErrorAfterEvents: 4 };
    await expect(stream(inputOf({}, true))).rejects.toMatchObject({ details: { kind: 'overloaded' } });
  });
});
