import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UpstreamFormatError } from '../../canonical/translation';
import { AnthropicReportedError } from './anthropic-reported-error';
import { readAnthropicResponse } from './convert-anthropic-response';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('Anthropic answer → canonical chat completion', () => {
  it('reads a text answer with its id, model, finish reason and usage', () => {
    const { completion, usage } = readAnthropicResponse(fixture('message-text.json'));
    expect(completion).toMatchObject({
      id: 'msg_013Zva2CMHLNnXjNJJKqJ2EF',
      object: 'chat.completion',
      model: 'claude-sonnet-4-5-20250929',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Hi! My name is Claude.' },
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 2095, completion_tokens: 503, total_tokens: 2598 },
    });
    expect(typeof completion.created).toBe('number');
    expect(usage).toEqual({ promptTokens: 2095, completionTokens: 503 });
  });

  it('turns tool uses into tool calls with their input as JSON text', () => {
    const { completion } = readAnthropicResponse(fixture('message-with-tool-use.json'));
    const [choice] = completion.choices;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBe(
      "I'll check the current weather in San Francisco and the time there.",
    );
    expect(choice.message.tool_calls).toEqual([
      {
        id: 'toolu_01A09q90qw90lq917835lq9',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"location":"San Francisco, CA","unit":"celsius"}' },
      },
      {
        id: 'toolu_01B18r81rx81mr828946mr8',
        type: 'function',
        function: { name: 'get_time', arguments: '{}' },
      },
    ]);
  });

  it('keeps thinking with its signature and redacted thinking before the text, and counts thinking tokens', () => {
    const { completion, usage } = readAnthropicResponse(fixture('message-with-thinking.json'));
    expect(completion.choices[0].message.content).toEqual([
      {
        type: 'thinking',
        thinking: 'Let me analyze this step by step. 27 * 453 = 27 * 400 + 27 * 53 = 10800 + 1431 = 12231.',
        signature: 'WaUjzkypQ2mUEVM36O2TxuC06KN8xyfbJwyem2dw3URve/op91XWHOEBLLqIOMfFG/UvLEczmEsUjavL....',
      },
      {
        type: 'redacted_thinking',
        data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB5URj',
      },
      { type: 'text', text: '27 × 453 = 12,231' },
    ]);
    expect(usage).toEqual({ promptTokens: 48, completionTokens: 1290, reasoningTokens: 1187 });
    expect(completion.usage?.completion_tokens_details).toEqual({ reasoning_tokens: 1187 });
  });

  it('bills cache writes and reads as parts of the prompt', () => {
    const { completion, usage } = readAnthropicResponse(fixture('message-with-cache-usage.json'));
    expect(usage).toEqual({
      promptTokens: 21 + 188086 + 2048,
      completionTokens: 393,
      cacheReadTokens: 2048,
      cacheWriteTokens: 188086,
    });
    expect(completion.usage).toEqual({
      prompt_tokens: 190155,
      completion_tokens: 393,
      total_tokens: 190548,
      prompt_tokens_details: { cached_tokens: 2048, cache_creation_tokens: 188086 },
    });
    expect(completion.choices[0].finish_reason).toBe('length');
  });

  it('joins the text around server tool blocks, which have no canonical form', () => {
    const { completion } = readAnthropicResponse(fixture('message-with-web-search.json'));
    expect(completion.choices[0].message).toEqual({
      role: 'assistant',
      content:
        "I'll search for when Claude Shannon was born.\n\nClaude Shannon was born on April 30, 1916, in Petoskey, Michigan",
    });
  });

  it('refuses a body that is not JSON or not a message, and reports an error object it finds', () => {
    expect(() => readAnthropicResponse(Buffer.from('{"id":"msg_1","type":"mess'))).toThrow(
      UpstreamFormatError,
    );
    expect(() => readAnthropicResponse(Buffer.from('{"choices":[]}'))).toThrow('not a message');
    expect(() => readAnthropicResponse(fixture('error-overloaded.json'))).toThrow(AnthropicReportedError);
  });
});

describe('Anthropic stop reasons', () => {
  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['pause_turn', 'stop'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['tool_use', 'tool_calls'],
    ['refusal', 'content_filter'],
    ['a_reason_added_later', 'stop'],
  ])('%s → %s', (stopReason, finishReason) => {
    expect(mapAnthropicStopReason(stopReason)).toBe(finishReason);
  });
});
