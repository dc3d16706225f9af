import { describe, expect, it } from 'vitest';
import type { ChatChunk, ChatCompletion, ChatDelta, FinishReason } from '../../canonical/chat';
import { encodeGeminiToolCallId } from '../../providers/gemini/gemini-tool-call-id';
import { RelayError, relayErrors } from '../../relay/relay-error';
import { createGeminiCodec } from './gemini-codec';

const sse = createGeminiCodec({ model: 'gemini-2.5-flash', isStream: true, isSse: true });
const array = createGeminiCodec({ model: 'gemini-2.5-flash', isStream: true, isSse: false });
const json = createGeminiCodec({ model: 'gemini-2.5-flash', isStream: false, isSse: false });

describe('encoding canonical answers for Gemini clients', () => {
  const completion: ChatCompletion = {
    id: 'msg_1',
    object: 'chat.completion',
    created: 1,
    model: 'claude-sonnet-4-5',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Let me see.', signature: 'sig' },
            { type: 'redacted_thinking', data: 'xyz' },
            { type: 'text', text: 'Checking the weather.' },
          ],
          tool_calls: [
            {
              id: encodeGeminiToolCallId('c1', 'AB+/'),
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
            { id: 'toolu_2', type: 'function', function: { name: 'get_time', arguments: '' } },
          ],
        },
        finish_reason: 'tool_calls',
      },
    ],
    usage: {
      prompt_tokens: 100,
      completion_tokens: 30,
      total_tokens: 130,
      prompt_tokens_details: { cached_tokens: 40 },
      completion_tokens_details: { reasoning_tokens: 12 },
    },
  };

  it('gives thoughts with their signatures, text and whole function calls, and Gemini’s usage counts', () => {
    expect(JSON.parse(json.encodeAnswer(completion))).toEqual({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { text: 'Let me see.', thought: true, thoughtSignature: 'sig' },
              { text: 'Checking the weather.' },
              {
                functionCall: { id: 'c1', name: 'get_weather', args: { city: 'Paris' } },
                thoughtSignature: 'AB+/',
              },
              { functionCall: { id: 'toolu_2', name: 'get_time', args: {} } },
            ],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: 100,
        candidatesTokenCount: 18,
        thoughtsTokenCount: 12,
        cachedContentTokenCount: 40,
        totalTokenCount: 130,
      },
      modelVersion: 'claude-sonnet-4-5',
      responseId: 'msg_1',
    });
  });

  it.each([
    ['length', 'MAX_TOKENS'],
    ['content_filter', 'SAFETY'],
    ['stop', 'STOP'],
  ] as const)(
    'finishes %s as %s, naming the asked model when the upstream named none',
    (reason, expected) => {
      const answer = JSON.parse(
        json.encodeAnswer({
          ...completion,
          model: '',
          choices: [{ index: 0, message: { role: 'assistant', content: 'x' }, finish_reason: reason }],
        }),
      );
      expect(answer.candidates[0].finishReason).toBe(expected);
      expect(answer.modelVersion).toBe('gemini-2.5-flash');
    },
  );
});

describe('streaming canonical chunks to Gemini clients', () => {
  const chunk = (
    delta: ChatDelta,
    finish: FinishReason | null = null,
    usage?: ChatChunk['usage'],
  ): ChatChunk => ({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-4o-mini',
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...(usage ? { usage } : {}),
  });
  const usage = { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 };

  /** An OpenAI-style stream: text, a tool call in pieces, the finish, the usage on a chunk of its own. */
  function encode(codec: typeof sse): string {
    const encoder = codec.createStreamEncoder({ model: 'gpt-4o-mini', messages: [] });
    return [
      encoder.encode(chunk({ role: 'assistant', content: '' })),
      encoder.encode(chunk({ reasoning_content: 'Hmm.' })),
      encoder.encode(chunk({ reasoning_signature: 'sig' })),
      encoder.encode(chunk({ content: 'Let me check.' })),
      encoder.encode(
        chunk({
          tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather' } }],
        }),
      ),
      encoder.encode(chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] })),
      encoder.encode(chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] })),
      encoder.encode(chunk({}, 'tool_calls')),
      encoder.encode({ ...chunk({}), choices: [], usage }),
      encoder.finish({ promptTokens: 9, completionTokens: 4 }),
    ].join('');
  }

  const expected = [
    { candidates: [{ content: { role: 'model', parts: [{ text: 'Hmm.', thought: true }] }, index: 0 }] },
    {
      candidates: [
        {
          content: { role: 'model', parts: [{ text: '', thought: true, thoughtSignature: 'sig' }] },
          index: 0,
        },
      ],
    },
    { candidates: [{ content: { role: 'model', parts: [{ text: 'Let me check.' }] }, index: 0 }] },
    {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [{ functionCall: { id: 'call_1', name: 'get_weather', args: { city: 'Paris' } } }],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 4, totalTokenCount: 13 },
    },
  ].map((response) => ({ ...response, modelVersion: 'gpt-4o-mini', responseId: 'chatcmpl-1' }));

  it('writes server-sent events, the function call whole, the finish with the usage that came after it', () => {
    const text = encode(sse);
    const events = text.split('\n\n').filter(Boolean);
    expect(events.every((event) => event.startsWith('data: '))).toBe(true);
    expect(events.map((event) => JSON.parse(event.slice(6)))).toEqual(expected);
  });

  it('writes one JSON array without alt=sse, as it grows', () => {
    const text = encode(array);
    expect(text.startsWith('[{')).toBe(true);
    expect(text.endsWith('}]')).toBe(true);
    expect(JSON.parse(text)).toEqual(expected);
    expect(array.streamContentType).toContain('application/json');
  });

  it('sends a call still open at the end of the stream, and an empty array when nothing came', () => {
    const encoder = array.createStreamEncoder({ model: 'm', messages: [] });
    const text =
      encoder.encode(
        chunk({ tool_calls: [{ index: 0, id: 'c', function: { name: 'f', arguments: '{}' } }] }),
      ) + encoder.finish(null);
    expect(JSON.parse(text)[0].candidates[0].content.parts).toEqual([
      { functionCall: { id: 'c', name: 'f', args: {} } },
    ]);
    expect(array.createStreamEncoder({ model: 'm', messages: [] }).finish(null)).toBe('[]');
  });

  it('frames forwarded events as the JSON array too', () => {
    const framer = array.createEventFramer!();
    expect(framer.frame('{"a":1}') + framer.frame('{"b":2}') + framer.end()).toBe('[{"a":1},\r\n{"b":2}]');
    expect(sse.createEventFramer).toBeUndefined();
  });
});

describe('errors for Gemini clients', () => {
  it.each([
    [relayErrors.invalidKey(), 401, 'UNAUTHENTICATED', 'API_KEY_INVALID'],
    [relayErrors.forbidden('no', 'model_not_allowed'), 403, 'PERMISSION_DENIED', 'MODEL_NOT_ALLOWED'],
    [relayErrors.noChannel('gemini-9', 'default'), 404, 'NOT_FOUND', 'MODEL_NOT_AVAILABLE'],
    [relayErrors.insufficientQuota('empty'), 429, 'RESOURCE_EXHAUSTED', 'INSUFFICIENT_QUOTA'],
    [
      new RelayError(503, 'busy', 'server_error', 'upstream_overloaded'),
      503,
      'UNAVAILABLE',
      'UPSTREAM_OVERLOADED',
    ],
    [relayErrors.internal(), 500, 'INTERNAL', 'INTERNAL_ERROR'],
    [relayErrors.invalidRequest('bad', 'contents'), 400, 'INVALID_ARGUMENT', undefined],
  ])('answers %o as %i %s', (error, status, word, reason) => {
    const encoded = json.encodeError(error, 'req-1');
    expect(encoded.status).toBe(status);
    const body = encoded.body as {
      error: { code: number; status: string; message: string; details?: Array<{ reason: string }> };
    };
    expect(body.error).toMatchObject({ code: status, status: word });
    expect(body.error.message).toContain('(request id: req-1)');
    expect(body.error.details?.[0].reason).toBe(reason);
  });

  it('ends a broken stream with an error event, or closes the JSON array with it', () => {
    const error = new RelayError(502, 'cut', 'upstream_error', 'stream_interrupted');
    expect(sse.encodeStreamError(error, 'r')).toMatch(
      /^data: \{"error":\{"code":502,.*"status":"UNAVAILABLE"/,
    );
    const tail = array.encodeStreamError(error, 'r');
    expect(JSON.parse(`[{}${tail}`)[1].error.code).toBe(502);
  });
});
