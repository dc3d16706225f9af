import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatChunk } from '../../canonical/chat';
import { UpstreamFormatError, UpstreamReportedError } from '../../canonical/translation';
import { createTencentStreamDecoder } from './tencent-stream-decoder';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

function decode(bytes: Buffer, isByteByByte: boolean) {
  const decoder = createTencentStreamDecoder();
  const chunks: ChatChunk[] = [];
  const pieces = isByteByByte ? [...bytes].map((byte) => Buffer.from([byte])) : [bytes];
  for (const piece of pieces) chunks.push(...decoder.push(piece));
  chunks.push(...decoder.end());
  return { chunks, usage: decoder.usage() };
}

const deltas = (chunks: ChatChunk[]) =>
  chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta));
const joined = (chunks: ChatChunk[], field: 'content' | 'reasoning_content') =>
  deltas(chunks)
    .map((delta) => delta[field] ?? '')
    .join('');
const finishes = (chunks: ChatChunk[]) =>
  chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.finish_reason)).filter(Boolean);

describe.each([
  ['whole', false],
  ['one byte at a time', true],
])('the Hunyuan stream decoder, fed %s', (_name, isByteByByte) => {
  it('decodes the text, one finish reason and the last usage', () => {
    const { chunks, usage } = decode(fixture('stream-text.sse'), isByteByByte);
    expect(joined(chunks, 'content')).toBe('你好！有什么可以帮你？');
    expect(deltas(chunks)[0]).toMatchObject({ role: 'assistant' });
    expect(finishes(chunks)).toEqual(['stop']);
    expect(usage).toEqual({ promptTokens: 3, completionTokens: 9 });
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 9 } });
  });

  it('decodes hunyuan-t1’s thinking as reasoning_content', () => {
    const { chunks } = decode(fixture('stream-reasoning.sse'), isByteByByte);
    expect(joined(chunks, 'reasoning_content')).toBe('用户在问候。');
    expect(joined(chunks, 'content')).toBe('你好！');
  });

  it('decodes tool calls with their ids', () => {
    const { chunks } = decode(fixture('stream-tool-calls.sse'), isByteByByte);
    expect(deltas(chunks).flatMap((delta) => delta.tool_calls ?? [])).toEqual([
      {
        index: 0,
        id: 'call_cp7bm1uu6mnkq4p9gd0g',
        type: 'function',
        function: { name: 'get_current_weather', arguments: '{"location":"北京"}' },
      },
    ]);
    expect(finishes(chunks)).toEqual(['tool_calls']);
  });

  it('throws the Response.Error a stream request is answered with', () => {
    expect(() => decode(fixture('error-request-limit.json'), isByteByByte)).toThrow(
      expect.objectContaining({
        details: expect.objectContaining({ kind: 'rate_limit', code: 'RequestLimitExceeded' }),
      }),
    );
  });

  it('refuses a stream cut before its finish reason', () => {
    expect(() => decode(fixture('stream-cut-before-finish.sse'), isByteByByte)).toThrow(UpstreamFormatError);
  });
});

describe('an ErrorMsg in the middle of a Hunyuan stream', () => {
  it('is thrown after the text before it has been answered', () => {
    const decoder = createTencentStreamDecoder();
    const chunks = decoder.push(fixture('stream-error-mid-stream.sse'));
    expect(joined(chunks, 'content')).toBe('你好');
    expect(() => decoder.end()).toThrow(UpstreamReportedError);
  });
});
