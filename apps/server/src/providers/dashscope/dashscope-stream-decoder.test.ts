import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatChunk } from '../../canonical/chat';
import { UpstreamFormatError, UpstreamReportedError } from '../../canonical/translation';
import { createDashScopeStreamDecoder } from './dashscope-stream-decoder';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

function decode(bytes: Buffer, isByteByByte: boolean) {
  const decoder = createDashScopeStreamDecoder();
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
])('the DashScope stream decoder, fed %s', (_name, isByteByByte) => {
  it('decodes the text, one finish reason and the last usage', () => {
    const { chunks, usage } = decode(fixture('stream-text.sse'), isByteByByte);
    expect(joined(chunks, 'content')).toBe('我是通义千问，阿里云的大模型。');
    expect(finishes(chunks)).toEqual(['stop']);
    expect(usage).toEqual({ promptTokens: 22, completionTokens: 11 });
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 22, completion_tokens: 11 } });
  });

  it('joins a tool call’s argument pieces under one index', () => {
    const { chunks } = decode(fixture('stream-tool-calls.sse'), isByteByByte);
    const calls = deltas(chunks).flatMap((delta) => delta.tool_calls ?? []);
    expect(calls[0]).toEqual({
      index: 0,
      id: 'call_8f08d2b0fc0c4d8fab7123',
      type: 'function',
      function: { name: 'get_current_weather', arguments: '{"location":' },
    });
    expect(calls.every((call) => call.index === 0)).toBe(true);
    expect(JSON.parse(calls.map((call) => call.function?.arguments ?? '').join(''))).toEqual({
      location: '杭州市',
    });
    expect(finishes(chunks)).toEqual(['tool_calls']);
  });

  it('decodes thinking as reasoning_content, with its token count', () => {
    const { chunks, usage } = decode(fixture('stream-reasoning.sse'), isByteByByte);
    expect(joined(chunks, 'reasoning_content')).toBe('用户问候，应礼貌回应。');
    expect(joined(chunks, 'content')).toBe('你好！');
    expect(usage).toEqual({ promptTokens: 11, completionTokens: 8, reasoningTokens: 6 });
  });

  it('refuses a stream cut before its finish reason', () => {
    expect(() => decode(fixture('stream-cut-before-finish.sse'), isByteByByte)).toThrow(UpstreamFormatError);
  });

  it('reads a JSON body (an error object) whole at its end', () => {
    expect(() => decode(fixture('error-arrearage.json'), isByteByByte)).toThrow(
      expect.objectContaining({ details: expect.objectContaining({ kind: 'insufficient_quota' }) }),
    );
  });
});

describe('an event:error in the middle of a DashScope stream', () => {
  it('is thrown after the text before it, with its code', () => {
    const decoder = createDashScopeStreamDecoder();
    const chunks = decoder.push(fixture('stream-error-event.sse'));
    expect(joined(chunks, 'content')).toBe('我是');
    expect(() => decoder.end()).toThrow(UpstreamReportedError);
    expect(() => decoder.end()).toThrow(
      expect.objectContaining({
        details: expect.objectContaining({ code: 'DataInspectionFailed', kind: 'invalid_request' }),
      }),
    );
  });
});
