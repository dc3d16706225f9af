import { readFileSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import type { ChatChunk, ChatCompletion, ChatDelta } from '../../canonical/chat';
import { createAnthropicStreamDecoder } from '../../providers/anthropic/anthropic-stream-decoder';
import { readAnthropicResponse } from '../../providers/anthropic/convert-anthropic-response';
import { RelayError, relayErrors } from '../../relay/relay-error';
import { anthropicMessagesCodec } from './anthropic-messages-codec';

const codec = anthropicMessagesCodec;
const fixture = (name: string) =>
  readFileSync(new URL(`../../providers/anthropic/__fixtures__/${name}`, import.meta.url));

/** The real SDK reading what the codec wrote: every request is answered with `body`. */
function answeringClient(body: string, status = 200): Anthropic {
  return new Anthropic({
    apiKey: 'sk-test',
    baseURL: 'http://gateway.invalid',
    maxRetries: 0,
    fetch: async () =>
      new Response(body, {
        status,
        headers: { 'content-type': body.startsWith('event:') ? 'text/event-stream' : 'application/json' },
      }),
  });
}

const ask = {
  model: 'claude-haiku-4-5',
  max_tokens: 100,
  messages: [{ role: 'user' as const, content: 'hi' }],
};

/** The SDK's view of a recorded stream, and of the same stream decoded and encoded again by the gateway. */
async function replayStream(name: string) {
  const recorded = fixture(name);
  const direct = await answeringClient(recorded.toString('utf8')).messages.stream(ask).finalMessage();
  const decoder = createAnthropicStreamDecoder();
  const encoder = codec.createStreamEncoder({ ...ask, stream: true });
  let text = '';
  for (const chunk of [...decoder.push(recorded), ...decoder.end()]) text += encoder.encode(chunk);
  text += encoder.finish(decoder.usage());
  const relayed = await answeringClient(text).messages.stream(ask).finalMessage();
  return { direct, relayed, text };
}

describe('Anthropic answers from canonical ones', () => {
  it.each(['message-with-thinking.json', 'message-with-tool-use.json', 'message-with-cache-usage.json'])(
    'writes %s back as Anthropic wrote it (content, stop reason, usage)',
    async (name) => {
      const recorded = JSON.parse(fixture(name).toString('utf8')) as Anthropic.Message;
      const { completion } = readAnthropicResponse(fixture(name));
      const message = await answeringClient(codec.encodeAnswer(completion)).messages.create(ask);
      expect(message).toMatchObject({
        id: recorded.id,
        type: 'message',
        role: 'assistant',
        model: recorded.model,
        content: recorded.content,
        stop_reason: recorded.stop_reason,
        stop_sequence: null,
        usage: {
          input_tokens: recorded.usage.input_tokens,
          output_tokens: recorded.usage.output_tokens,
          cache_creation_input_tokens: recorded.usage.cache_creation_input_tokens ?? 0,
          cache_read_input_tokens: recorded.usage.cache_read_input_tokens ?? 0,
        },
      });
    },
  );

  const completion = (
    message: ChatCompletion['choices'][number]['message'],
    finish: 'stop' | 'length' | 'tool_calls' | 'content_filter',
  ) =>
    ({
      id: 'chatcmpl-9',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-4o',
      choices: [{ index: 0, message, finish_reason: finish }],
      usage: {
        prompt_tokens: 100,
        completion_tokens: 20,
        total_tokens: 120,
        prompt_tokens_details: { cached_tokens: 60, cache_creation_tokens: 10 },
      },
    }) satisfies ChatCompletion;

  it('puts reasoning first, then text, then tool uses with their arguments parsed', () => {
    const answer = JSON.parse(
      codec.encodeAnswer(
        completion(
          {
            role: 'assistant',
            content: 'Checking.',
            reasoning_content: 'The user wants weather.',
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'weather', arguments: '{"city":"Paris"}' },
              },
              { id: 'call_2', type: 'function', function: { name: 'clock', arguments: 'not json' } },
            ],
          },
          'tool_calls',
        ),
      ),
    ) as Anthropic.Message;
    expect(answer).toEqual({
      id: 'msg_chatcmpl-9',
      type: 'message',
      role: 'assistant',
      model: 'gpt-4o',
      content: [
        { type: 'thinking', thinking: 'The user wants weather.', signature: '' },
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'call_1', name: 'weather', input: { city: 'Paris' } },
        { type: 'tool_use', id: 'call_2', name: 'clock', input: {} },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      // prompt_tokens counts the cache; Anthropic's input_tokens does not.
      usage: {
        input_tokens: 30,
        output_tokens: 20,
        cache_creation_input_tokens: 10,
        cache_read_input_tokens: 60,
      },
    });
  });

  it.each([
    ['stop', 'end_turn'],
    ['length', 'max_tokens'],
    ['content_filter', 'refusal'],
    ['tool_calls', 'tool_use'],
  ] as const)('maps finish_reason %s to stop_reason %s', (finish, stopReason) => {
    const answer = JSON.parse(
      codec.encodeAnswer(completion({ role: 'assistant', content: 'x' }, finish)),
    ) as Anthropic.Message;
    expect(answer.stop_reason).toBe(stopReason);
  });

  it('says tool_use when a vendor ends tool calls with stop', () => {
    const message = {
      role: 'assistant' as const,
      content: null,
      tool_calls: [{ id: 'c', type: 'function' as const, function: { name: 'f', arguments: '{}' } }],
    };
    const answer = JSON.parse(codec.encodeAnswer(completion(message, 'stop'))) as Anthropic.Message;
    expect(answer.stop_reason).toBe('tool_use');
  });
});

describe('Anthropic streams from canonical chunks', () => {
  it.each([
    'stream-text.sse',
    'stream-text-with-thinking.sse',
    'stream-tool-use.sse',
    'stream-redacted-thinking.sse',
  ])('relays %s so that the SDK assembles the same message', async (name) => {
    const { direct, relayed } = await replayStream(name);
    expect(relayed.content).toEqual(direct.content);
    expect(relayed.stop_reason).toBe(direct.stop_reason);
    expect(relayed.id).toBe(direct.id);
    expect(relayed.usage).toMatchObject({
      input_tokens: direct.usage.input_tokens,
      output_tokens: direct.usage.output_tokens,
      cache_creation_input_tokens: direct.usage.cache_creation_input_tokens ?? 0,
      cache_read_input_tokens: direct.usage.cache_read_input_tokens ?? 0,
    });
  });

  it('writes the event sequence: message_start, one block per kind, message_delta with the usage, message_stop', () => {
    const encoder = codec.createStreamEncoder({ ...ask, stream: true });
    const chunk = (
      delta: ChatDelta,
      finish: ChatChunk['choices'][number]['finish_reason'] = null,
    ): ChatChunk => ({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'gpt-4o',
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const text = [
      encoder.encode(chunk({ role: 'assistant', content: '' })),
      encoder.encode(chunk({ reasoning_content: 'Hmm.' })),
      encoder.encode(chunk({ reasoning_signature: 'sig' })),
      encoder.encode(chunk({ content: 'Hel' })),
      encoder.encode(chunk({ content: 'lo' })),
      encoder.encode(
        chunk({
          tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '' } }],
        }),
      ),
      encoder.encode(chunk({ tool_calls: [{ index: 0, function: { arguments: '{"a":' } }] })),
      encoder.encode(chunk({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] })),
      encoder.encode(
        chunk({ tool_calls: [{ index: 1, id: 'call_2', function: { name: 'g', arguments: '{}' } }] }),
      ),
      encoder.encode(chunk({}, 'tool_calls')),
      encoder.finish({ promptTokens: 50, completionTokens: 9, cacheReadTokens: 40 }),
    ].join('');
    const events = text
      .split('\n\n')
      .filter(Boolean)
      .map((block) => {
        const [eventLine, dataLine] = block.split('\n');
        const data = JSON.parse(dataLine.slice('data: '.length)) as { type: string } & Record<
          string,
          unknown
        >;
        expect(eventLine).toBe(`event: ${data.type}`);
        return data;
      });
    const summary = events.map((event) => {
      if (event.type === 'content_block_start')
        return `start ${(event.content_block as { type: string }).type} ${String(event.index)}`;
      if (event.type === 'content_block_delta')
        return `${(event.delta as { type: string }).type} ${String(event.index)}`;
      if (event.type === 'content_block_stop') return `stop ${String(event.index)}`;
      return event.type;
    });
    expect(summary).toEqual([
      'message_start',
      'start thinking 0',
      'thinking_delta 0',
      'signature_delta 0',
      'stop 0',
      'start text 1',
      'text_delta 1',
      'text_delta 1',
      'stop 1',
      'start tool_use 2',
      'input_json_delta 2',
      'input_json_delta 2',
      'stop 2',
      'start tool_use 3',
      'input_json_delta 3',
      'stop 3',
      'message_delta',
      'message_stop',
    ]);
    expect(events[0]).toMatchObject({ message: { id: 'msg_chatcmpl-1', model: 'gpt-4o', content: [] } });
    expect(events.at(-2)).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: {
        input_tokens: 10,
        output_tokens: 9,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 40,
      },
    });
  });

  it('still writes a whole message when the vendor sent no chunk at all', async () => {
    const encoder = codec.createStreamEncoder({ ...ask, stream: true });
    const message = await answeringClient(encoder.finish(null)).messages.stream(ask).finalMessage();
    expect(message).toMatchObject({ model: 'claude-haiku-4-5', content: [], stop_reason: 'end_turn' });
  });
});

describe('Anthropic errors', () => {
  it.each([
    [
      relayErrors.invalidRequest('max_tokens: Field required', 'max_tokens'),
      400,
      'invalid_request_error',
      Anthropic.BadRequestError,
    ],
    [relayErrors.invalidKey(), 401, 'authentication_error', Anthropic.AuthenticationError],
    [
      relayErrors.forbidden('no', 'model_not_allowed'),
      403,
      'permission_error',
      Anthropic.PermissionDeniedError,
    ],
    [relayErrors.noChannel('claude-x', 'default'), 404, 'not_found_error', Anthropic.NotFoundError],
    [relayErrors.insufficientQuota('empty'), 429, 'rate_limit_error', Anthropic.RateLimitError],
    [
      new RelayError(529, 'Overloaded', 'overloaded_error'),
      529,
      'overloaded_error',
      Anthropic.InternalServerError,
    ],
    [new RelayError(503, 'busy', 'server_error'), 503, 'overloaded_error', Anthropic.InternalServerError],
    [new RelayError(502, 'bad upstream', 'upstream_error'), 502, 'api_error', Anthropic.InternalServerError],
    [relayErrors.internal(), 500, 'api_error', Anthropic.InternalServerError],
  ])(
    'answers %s as %i %s, which the SDK raises as its typed error',
    async (error, status, type, errorClass) => {
      const encoded = codec.encodeError(error, 'req-1');
      expect(encoded.status).toBe(status);
      expect(encoded.headers['request-id']).toBe('req-1');
      expect(encoded.body).toEqual({
        type: 'error',
        error: { type, message: error.message },
        request_id: 'req-1',
      });
      const raised = await answeringClient(JSON.stringify(encoded.body), encoded.status)
        .messages.create(ask)
        .catch((caught: unknown) => caught);
      expect(raised).toBeInstanceOf(errorClass);
    },
  );

  it('writes a mid-stream error as an error event the SDK raises', async () => {
    const encoder = codec.createStreamEncoder({ ...ask, stream: true });
    const text =
      encoder.encode({
        id: 'c',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'm',
        choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }],
      }) +
      codec.encodeStreamError(
        new RelayError(502, 'The upstream stream was interrupted', 'upstream_error'),
        'req-2',
      );
    expect(text).toContain('event: error\ndata: {"type":"error","error":{"type":"api_error"');
    const raised = await answeringClient(text)
      .messages.stream(ask)
      .finalMessage()
      .catch((caught: unknown) => caught);
    expect(raised).toBeInstanceOf(Anthropic.APIError);
    expect((raised as Error).message).toContain('The upstream stream was interrupted');
  });

  it('reads the protocol headers an Anthropic channel needs, and only those', () => {
    expect(codec.readClientHeaders({ authorization: 'Bearer x', 'x-api-key': 'k' })).toEqual({});
    expect(
      codec.readClientHeaders({ 'anthropic-version': '2023-06-01', 'anthropic-beta': ['a-1', 'b-2'] }),
    ).toEqual({ 'anthropic-version': '2023-06-01', 'anthropic-beta': 'a-1,b-2' });
  });
});
