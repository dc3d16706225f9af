import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatChunk, ChatDelta } from '../../canonical/chat';
import { UpstreamFormatError } from '../../canonical/translation';
import { AnthropicReportedError } from './anthropic-reported-error';
import { createAnthropicStreamDecoder } from './anthropic-stream-decoder';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

/** Decodes a recorded stream cut into pieces of `size` bytes, as the network may deliver it. */
function decode(bytes: Buffer, size = bytes.length) {
  const decoder = createAnthropicStreamDecoder();
  const chunks: ChatChunk[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) {
    chunks.push(...decoder.push(bytes.subarray(offset, offset + size)));
  }
  chunks.push(...decoder.end());
  return { chunks, usage: decoder.usage() };
}

/** Decodes a fixture whole and one byte at a time, which must give the same chunks. */
function replay(name: string) {
  const whole = decode(fixture(name));
  expect(decode(fixture(name), 1)).toEqual(whole);
  return whole;
}

const deltas = (chunks: ChatChunk[]): ChatDelta[] =>
  chunks.flatMap((chunk) => chunk.choices.map((c) => c.delta));
const text = (chunks: ChatChunk[], field: 'content' | 'reasoning_content') =>
  deltas(chunks)
    .map((delta) => delta[field] ?? '')
    .join('');
const finishReasons = (chunks: ChatChunk[]) =>
  chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.finish_reason)).filter(Boolean);

describe('Anthropic stream → canonical chunks', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-02T03:04:05Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('decodes a text stream, however its bytes are cut, into role, content, finish and usage chunks', () => {
    const { chunks, usage } = replay('stream-text.sse');
    const head = {
      id: 'msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY',
      object: 'chat.completion.chunk',
      created: Date.parse('2026-01-02T03:04:05Z') / 1000,
      model: 'claude-sonnet-4-5-20250929',
    };
    const choice = (delta: ChatDelta, finish_reason: ChatChunk['choices'][0]['finish_reason'] = null) => ({
      ...head,
      choices: [{ index: 0, delta, finish_reason }],
    });
    expect(chunks).toEqual([
      choice({ role: 'assistant', content: '' }),
      choice({ content: 'Hello' }),
      choice({ content: ', wörld — ✓ 👋' }),
      choice({}, 'stop'),
      {
        ...head,
        choices: [],
        usage: {
          prompt_tokens: 25,
          completion_tokens: 15,
          total_tokens: 40,
          prompt_tokens_details: { cached_tokens: 0, cache_creation_tokens: 0 },
        },
      },
    ]);
    expect(usage).toEqual({ promptTokens: 25, completionTokens: 15 });
  });

  it('passes thinking as reasoning_content and its signature as reasoning_signature', () => {
    const { chunks } = replay('stream-text-with-thinking.sse');
    expect(text(chunks, 'reasoning_content')).toBe(
      'I need to find the GCD of 1071 and 462 using the Euclidean algorithm.\n\n1071 = 2 × 462 + 147' +
        '\n462 = 3 × 147 + 21\n147 = 7 × 21 + 0\n\nSo GCD(1071, 462) = 21',
    );
    expect(deltas(chunks).filter((delta) => delta.reasoning_signature)).toEqual([
      { reasoning_signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds...' },
    ]);
    expect(text(chunks, 'content')).toBe('The greatest common divisor of 1071 and 462 is **21**.');
  });

  it('passes a redacted thinking block whole', () => {
    const { chunks } = replay('stream-redacted-thinking.sse');
    expect(deltas(chunks).filter((delta) => delta.redacted_thinking)).toEqual([
      { redacted_thinking: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP' },
    ]);
    expect(text(chunks, 'content')).toBe('Done.');
  });

  it('numbers tool calls among tool calls only, streams their arguments, and gives {} to a tool without input', () => {
    const { chunks } = replay('stream-tool-use.sse');
    const calls = deltas(chunks).flatMap((delta) => delta.tool_calls ?? []);
    expect(calls[0]).toEqual({
      index: 0,
      id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
      type: 'function',
      function: { name: 'get_weather', arguments: '' },
    });
    const argumentsOf = (index: number) =>
      calls
        .filter((call) => call.index === index)
        .map((call) => call.function?.arguments ?? '')
        .join('');
    expect(JSON.parse(argumentsOf(0))).toEqual({ location: 'San Francisco, CA', unit: 'fahrenheit' });
    expect(calls.filter((call) => call.id).map((call) => [call.index, call.function?.name])).toEqual([
      [0, 'get_weather'],
      [1, 'get_time'],
    ]);
    expect(argumentsOf(1)).toBe('{}');
    expect(finishReasons(chunks)).toEqual(['tool_calls']);
  });

  it('skips server tool blocks and reads the cumulative usage of message_delta, cache counts included', () => {
    const { chunks, usage } = replay('stream-web-search-with-cache-usage.sse');
    expect(deltas(chunks).some((delta) => delta.tool_calls)).toBe(false);
    expect(text(chunks, 'content')).toBe('It is sunny in New York today.');
    expect(usage).toEqual({
      promptTokens: 10682 + 1200 + 3000,
      completionTokens: 510,
      cacheReadTokens: 3000,
      cacheWriteTokens: 1200,
    });
    expect(chunks.at(-1)?.usage?.prompt_tokens_details).toEqual({
      cached_tokens: 3000,
      cache_creation_tokens: 1200,
    });
  });

  it('answers what came before an error event, then throws the error with its kind', () => {
    const decoder = createAnthropicStreamDecoder();
    const chunks = decoder.push(fixture('stream-error-overloaded.sse'));
    expect(text(chunks, 'content')).toBe('Once upon');
    let thrown: unknown;
    try {
      decoder.end();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AnthropicReportedError);
    expect(thrown).toBeInstanceOf(UpstreamFormatError);
    expect((thrown as AnthropicReportedError).details).toEqual({
      message: 'Overloaded',
      type: 'overloaded_error',
      code: 'overloaded_error',
      kind: 'overloaded',
    });
    expect(() => decode(fixture('stream-error-overloaded.sse'), 7)).toThrow(AnthropicReportedError);
  });

  it('throws when the stream ends before message_stop, or is empty, or is not JSON', () => {
    const cut = createAnthropicStreamDecoder();
    expect(text(cut.push(fixture('stream-cut-before-message-stop.sse')), 'content')).toBe('Once upon a ti');
    expect(() => cut.end()).toThrow('the Anthropic stream ended before message_stop');
    expect(cut.usage()).toEqual({ promptTokens: 25, completionTokens: 1 });
    const empty = createAnthropicStreamDecoder();
    expect(empty.usage()).toBeNull();
    expect(() => empty.end()).toThrow('the Anthropic stream was empty');
    expect(() => createAnthropicStreamDecoder().push(Buffer.from('data: {"type":"message_st\n\n'))).toThrow(
      UpstreamFormatError,
    );
  });
});
