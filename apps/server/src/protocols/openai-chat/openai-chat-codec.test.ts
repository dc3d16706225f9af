import { describe, expect, it } from 'vitest';
import type { ChatChunk, ChatCompletion } from '../../canonical/chat';
import { RelayError } from '../../relay/relay-error';
import { decodeOpenAIChatRequest } from './decode-openai-chat-request';
import { openAIChatCodec } from './openai-chat-codec';

const hello = [{ role: 'user', content: 'hi' }];

function refusal(body: Record<string, unknown>): { param: string | null; message: string } {
  try {
    decodeOpenAIChatRequest(body);
  } catch (error) {
    if (error instanceof RelayError) return { param: error.param, message: error.message };
    throw error;
  }
  throw new Error('the body was accepted');
}

describe('decoding an OpenAI chat request', () => {
  it('answers the body itself when nothing must change (no copy on the pass-through lane)', () => {
    const body = {
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'https://x/y.png' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'ok' },
      ],
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
      max_completion_tokens: 100,
      stream: true,
      stream_options: { include_usage: true },
      a_field_from_the_future: { anything: true },
    };
    expect(decodeOpenAIChatRequest(body)).toBe(body);
  });

  it('leaves nulls out and makes OpenAI-only tools vendor tools, in a copy', () => {
    const webSearch = { type: 'web_search', search_context_size: 'low' };
    const body = {
      model: 'gpt-4o',
      messages: hello,
      max_tokens: null,
      stop: null,
      tools: [webSearch],
      top_k: 'x',
    };
    const request = decodeOpenAIChatRequest(body);
    expect(request).not.toBe(body);
    expect(body.max_tokens).toBeNull();
    expect(request).toEqual({
      model: 'gpt-4o',
      messages: hello,
      tools: [{ type: 'web_search', vendor_protocol: 'openai-chat', definition: webSearch }],
    });
  });

  it.each([
    [{ messages: hello }, 'model', "Missing required parameter: 'model'."],
    [
      { model: 'm', messages: [1, 2, null] },
      'messages[0]',
      "Invalid type for 'messages[0]': expected an object, but got an integer instead.",
    ],
    [{ model: 'm', messages: [{ role: 'user', content: 'a' }, null] }, 'messages[1]', 'but got null instead'],
    [
      { model: 'm', messages: [{ role: 'user' }] },
      'messages[0].content',
      "Missing required parameter: 'messages[0].content'.",
    ],
    [{ model: 'm', messages: [{ role: 'user', content: [] }] }, 'messages[0].content', 'empty array'],
    [
      {
        model: 'm',
        messages: [{ role: 'system', content: [{ type: 'image_url', image_url: { url: 'u' } }] }],
      },
      'messages[0].content[0].type',
      "Invalid value for 'messages[0].content[0].type'",
    ],
    [{ model: 'm', messages: [{ role: 'tool', content: 'x' }] }, 'messages[0].tool_call_id', 'tool_call_id'],
    [
      { model: 'm', messages: [{ role: 'function', name: 'f', content: 'x' }] },
      'messages[0].role',
      "send the result as a 'tool' message",
    ],
    [
      {
        model: 'm',
        messages: [
          { role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f' } }] },
        ],
      },
      'messages[0].tool_calls[0].function.arguments',
      'arguments',
    ],
    [
      { model: 'm', messages: hello, max_tokens: 1.5 },
      'max_tokens',
      'expected an integer, but got a decimal instead',
    ],
    [{ model: 'm', messages: hello, n: 0 }, 'n', 'Expected a value >= 1'],
    [
      { model: 'm', messages: hello, temperature: 2.5 },
      'temperature',
      'Expected a value <= 2, but got 2.5 instead.',
    ],
    [{ model: 'm', messages: hello, stop: ['a', 3] }, 'stop[1]', 'expected a string'],
    [{ model: 'm', messages: hello, tool_choice: 'sometimes' }, 'tool_choice', 'Supported values are'],
    [
      { model: 'm', messages: hello, stream_options: { include_usage: 'yes' } },
      'stream_options.include_usage',
      'a boolean',
    ],
    [{ model: 'm', messages: hello, response_format: {} }, 'response_format.type', 'response_format.type'],
  ])('refuses %j naming %s', (body, param, words) => {
    const refused = refusal(body as Record<string, unknown>);
    expect(refused.param).toBe(param);
    expect(refused.message).toContain(words);
  });
});

describe('encoding canonical answers for OpenAI clients', () => {
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
            { type: 'text', text: 'Forty-two.' },
          ],
        },
        finish_reason: 'stop',
      },
    ],
    usage: {
      prompt_tokens: 10,
      completion_tokens: 5,
      total_tokens: 15,
      prompt_tokens_details: { cached_tokens: 4 },
    },
  };

  it('gives text as content and thinking as reasoning_content, without signatures', () => {
    const answer = JSON.parse(openAIChatCodec.encodeAnswer(completion));
    expect(answer.choices[0].message).toEqual({
      role: 'assistant',
      content: 'Forty-two.',
      reasoning_content: 'Let me see.',
    });
    expect(answer.usage).toEqual(completion.usage);
  });

  const chunk = (
    delta: ChatChunk['choices'][number]['delta'],
    finish: 'stop' | null = null,
    usage?: ChatChunk['usage'],
  ): ChatChunk => ({
    id: 'msg_1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'claude',
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...(usage ? { usage } : {}),
  });

  function encodeStream(includeUsage: boolean): string {
    const encoder = openAIChatCodec.createStreamEncoder({
      model: 'claude',
      messages: [],
      stream: true,
      ...(includeUsage ? { stream_options: { include_usage: true } } : {}),
    });
    return [
      encoder.encode(chunk({ role: 'assistant', content: '' })),
      encoder.encode(chunk({ reasoning_content: 'Hmm.' })),
      encoder.encode(chunk({ reasoning_signature: 'sig' })),
      encoder.encode(chunk({ content: 'Hi' })),
      encoder.encode(chunk({}, 'stop', { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 })),
      encoder.finish({ promptTokens: 3, completionTokens: 2 }),
    ].join('');
  }

  it('streams chunks as data events, drops what an OpenAI client has no use for, ends with [DONE]', () => {
    const text = encodeStream(false);
    const events = text.split('\n\n').filter(Boolean);
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.slice(6)));
    expect(chunks).toHaveLength(4);
    expect(text).not.toContain('reasoning_signature');
    expect(text).not.toContain('usage');
    expect(chunks[3].choices[0].finish_reason).toBe('stop');
  });

  it('sends the usage on a last choice-less chunk when the client asked for it', () => {
    const events = encodeStream(true).split('\n\n').filter(Boolean);
    expect(events.at(-1)).toBe('data: [DONE]');
    expect(JSON.parse(events.at(-2)!.slice(6))).toEqual({
      id: 'msg_1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'claude',
      choices: [],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    });
  });

  it('answers errors in OpenAI shape with the real status', () => {
    const error = new RelayError(429, 'Slow down', 'rate_limit_error', 'rate_limit_exceeded');
    expect(openAIChatCodec.encodeError(error, 'req-1')).toEqual({
      status: 429,
      headers: {},
      body: {
        error: {
          message: 'Slow down (request id: req-1)',
          type: 'rate_limit_error',
          param: null,
          code: 'rate_limit_exceeded',
        },
      },
    });
    expect(openAIChatCodec.encodeStreamError(error, 'req-1')).toMatch(
      /^data: \{"error":\{"message":"Slow down/,
    );
  });
});
