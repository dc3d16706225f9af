import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatChunk } from '../../canonical/chat';
import { UpstreamFormatError, UpstreamReportedError } from '../../canonical/translation';
import { createBaiduStreamDecoder } from './baidu-stream-decoder';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

/** Feeds the bytes whole or one at a time (multi-byte characters cut in two). */
function decode(bytes: Buffer, isByteByByte: boolean) {
  const decoder = createBaiduStreamDecoder();
  const chunks: ChatChunk[] = [];
  const pieces = isByteByByte ? [...bytes].map((byte) => Buffer.from([byte])) : [bytes];
  for (const piece of pieces) chunks.push(...decoder.push(piece));
  chunks.push(...decoder.end());
  return { chunks, usage: decoder.usage() };
}

const deltas = (chunks: ChatChunk[]) =>
  chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta));
const text = (chunks: ChatChunk[]) =>
  deltas(chunks)
    .map((delta) => delta.content ?? '')
    .join('');
const finishes = (chunks: ChatChunk[]) =>
  chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.finish_reason)).filter(Boolean);

describe.each([
  ['whole', false],
  ['one byte at a time', true],
])('the ERNIE stream decoder, fed %s', (_name, isByteByByte) => {
  it('decodes the text, one finish reason and the last usage', () => {
    const { chunks, usage } = decode(fixture('stream-text.sse'), isByteByByte);
    expect(text(chunks)).toBe('你好，有什么我可以帮助你的吗？');
    expect(deltas(chunks)[0]).toMatchObject({ role: 'assistant' });
    expect(finishes(chunks)).toEqual(['stop']);
    expect(usage).toEqual({ promptTokens: 2, completionTokens: 11 });
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 2, completion_tokens: 11 } });
  });

  it('decodes a function call as one whole tool call', () => {
    const { chunks } = decode(fixture('stream-function-call.sse'), isByteByByte);
    const calls = deltas(chunks).flatMap((delta) => delta.tool_calls ?? []);
    expect(calls).toEqual([
      {
        index: 0,
        id: 'call_as-xn2wxikg0b',
        type: 'function',
        function: { name: 'get_current_weather', arguments: '{"location":"深圳"}' },
      },
    ]);
    expect(finishes(chunks)).toEqual(['tool_calls']);
  });

  it('throws the error Baidu answers a stream request with, as one JSON object', () => {
    expect(() => decode(fixture('error-qps-limit.json'), isByteByByte)).toThrow(
      expect.objectContaining({ details: expect.objectContaining({ kind: 'rate_limit', code: '18' }) }),
    );
  });

  it('refuses a stream cut before is_end', () => {
    expect(() => decode(fixture('stream-cut-before-is-end.sse'), isByteByByte)).toThrow(UpstreamFormatError);
    expect(() => decode(fixture('stream-cut-before-is-end.sse'), isByteByByte)).toThrow('before is_end');
  });
});

describe('an error event in the middle of an ERNIE stream', () => {
  it('is thrown after the text before it has been answered', () => {
    const decoder = createBaiduStreamDecoder();
    const chunks = decoder.push(fixture('stream-error-mid-stream.sse'));
    expect(text(chunks)).toBe('你好，');
    expect(() => decoder.end()).toThrow(UpstreamReportedError);
  });
});

describe('the v2 API’s stream', () => {
  it('is read as OpenAI’s, usage included', () => {
    const events = [
      {
        id: 'a',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'm',
        choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: null }],
      },
      {
        id: 'a',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'm',
        choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
      },
      {
        id: 'a',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'm',
        choices: [],
        usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
      },
    ];
    const body = Buffer.from(
      `${events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('')}data: [DONE]\n\n`,
    );
    const { chunks, usage } = decode(body, true);
    expect(text(chunks)).toBe('Hi');
    expect(usage).toEqual({ promptTokens: 5, completionTokens: 1 });
  });
});
