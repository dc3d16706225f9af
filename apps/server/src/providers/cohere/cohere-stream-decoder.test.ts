import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatChunk, ChatDelta } from '../../canonical/chat';
import { UpstreamFormatError } from '../../canonical/translation';
import { CohereReportedError } from './cohere-reported-error';
import { createCohereStreamDecoder } from './cohere-stream-decoder';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

/** Decodes a recorded stream cut into pieces of `size` bytes, as the network may deliver it. */
function decode(bytes: Buffer, size = bytes.length) {
  const decoder = createCohereStreamDecoder();
  const chunks: ChatChunk[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) {
    chunks.push(...decoder.push(bytes.subarray(offset, offset + size)));
  }
  chunks.push(...decoder.end());
  return { chunks, usage: decoder.usage() };
}

/** Decodes a fixture whole and one byte at a time, which must give the same chunks (timestamps aside). */
function replay(name: string) {
  const whole = decode(fixture(name));
  const strip = (chunks: ChatChunk[]) => chunks.map((chunk) => ({ ...chunk, created: 0 }));
  const byByte = decode(fixture(name), 1);
  expect(strip(byByte.chunks)).toEqual(strip(whole.chunks));
  expect(byByte.usage).toEqual(whole.usage);
  return whole;
}

const deltas = (chunks: ChatChunk[]): ChatDelta[] =>
  chunks.flatMap((chunk) => chunk.choices.map((c) => c.delta));
const text = (chunks: ChatChunk[], field: 'content' | 'reasoning_content' = 'content') =>
  deltas(chunks)
    .map((delta) => delta[field] ?? '')
    .join('');
const finishReasons = (chunks: ChatChunk[]) =>
  chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.finish_reason)).filter(Boolean);

describe('Cohere chat stream → canonical chunks', () => {
  it('decodes a text stream, however its bytes are cut, into role, content, finish and usage chunks', () => {
    const { chunks, usage } = replay('stream-text.sse');
    expect(chunks[0]).toMatchObject({
      id: '29f14a5a-11de-4cae-9800-25e4747408ea',
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
    });
    expect(text(chunks)).toBe('Hello, wörld — ✓ 👋');
    expect(finishReasons(chunks)).toEqual(['stop']);
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 3, completion_tokens: 9, total_tokens: 12 },
    });
    expect(usage).toEqual({ promptTokens: 3, completionTokens: 9 });
  });

  it('streams the tool plan as content and tool calls numbered in order, with their arguments', () => {
    const { chunks, usage } = replay('stream-tool-call.sse');
    expect(text(chunks)).toBe('I will look up the weather.');
    const calls = deltas(chunks).flatMap((delta) => delta.tool_calls ?? []);
    expect(calls.filter((call) => call.id)).toEqual([
      {
        index: 0,
        id: 'get_weather_nsz5zm3w56q3',
        type: 'function',
        function: { name: 'get_weather', arguments: '' },
      },
      { index: 1, id: 'get_time_4a9e2b', type: 'function', function: { name: 'get_time', arguments: '{}' } },
    ]);
    const argumentsOf = (index: number) =>
      calls
        .filter((call) => call.index === index)
        .map((call) => call.function?.arguments ?? '')
        .join('');
    expect(JSON.parse(argumentsOf(0))).toEqual({ location: 'Toronto' });
    expect(finishReasons(chunks)).toEqual(['tool_calls']);
    expect(usage).toEqual({ promptTokens: 37, completionTokens: 28 });
  });

  it('passes thinking as reasoning_content, MAX_TOKENS as length, and token counts when nothing is billed', () => {
    const { chunks, usage } = replay('stream-thinking.sse');
    expect(text(chunks, 'reasoning_content')).toBe('17 × 23 = 391.');
    expect(text(chunks)).toBe('391');
    expect(finishReasons(chunks)).toEqual(['length']);
    expect(usage).toEqual({ promptTokens: 520, completionTokens: 40 });
  });

  it('answers what came before an ERROR finish, then throws it as a reported server failure', () => {
    const decoder = createCohereStreamDecoder();
    const chunks = decoder.push(fixture('stream-finish-error.sse'));
    expect(text(chunks)).toBe('Partial');
    let thrown: unknown;
    try {
      decoder.end();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CohereReportedError);
    expect((thrown as CohereReportedError).details).toMatchObject({
      message: 'internal model error',
      kind: 'server',
    });
  });

  it('reports a stream cut before message-end, and an empty one', () => {
    expect(() => decode(fixture('stream-cut-before-message-end.sse'))).toThrow('ended before message-end');
    expect(() => decode(fixture('stream-cut-before-message-end.sse'), 1)).toThrow(UpstreamFormatError);
    expect(() => decode(Buffer.from(''))).toThrow('the Cohere stream was empty');
    expect(() => decode(Buffer.from('data: {"no":"type"}\n\n'))).toThrow('without a type');
  });
});
