import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatChunk } from '../../canonical/chat';
import { UpstreamFormatError } from '../../canonical/translation';
import { CozeReportedError } from './coze-reported-error';
import { createCozeStreamDecoder } from './coze-stream-decoder';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

function decode(bytes: Buffer, size = bytes.length) {
  const decoder = createCozeStreamDecoder();
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
  expect(strip(decode(fixture(name), 1).chunks)).toEqual(strip(whole.chunks));
  return whole;
}

const text = (chunks: ChatChunk[], field: 'content' | 'reasoning_content' = 'content') =>
  chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta[field] ?? '')).join('');

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return null;
}

describe('Coze chat v3 stream → canonical chunks', () => {
  it('streams the answer deltas once, however the bytes are cut, then stop and the chat usage', () => {
    const { chunks, usage } = replay('stream-answer.sse');
    expect(chunks[0]).toMatchObject({
      id: '7382159487131697202',
      choices: [{ delta: { role: 'assistant', content: '' }, finish_reason: null }],
    });
    expect(text(chunks)).toBe('2024 年 10 月 1 日是星期二。');
    expect(chunks.at(-2)?.choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 5878, completion_tokens: 766, total_tokens: 6644 },
    });
    expect(usage).toEqual({ promptTokens: 5878, completionTokens: 766 });
  });

  it("skips the bot's recalls, plugin calls and verbose messages, and gives a card that came whole", () => {
    const { chunks, usage } = replay('stream-plugin-and-card.sse');
    expect(text(chunks, 'reasoning_content')).toBe('The user wants news.');
    expect(text(chunks)).toBe('Here is today\'s news.{"card_type":2,"data":"news-card"}');
    expect(usage).toEqual({ promptTokens: 2224, completionTokens: 1173 });
  });

  it('answers what came before a failed chat, then throws Coze’s error with its kind', () => {
    const decoder = createCozeStreamDecoder();
    expect(text(decoder.push(fixture('stream-chat-failed.sse')))).toBe('Let me');
    const error = thrownBy(() => decoder.end());
    expect(error).toBeInstanceOf(CozeReportedError);
    expect((error as CozeReportedError).details).toEqual({
      message: 'The request rate exceeds the limit. Please try again later.',
      type: 'coze_error',
      code: '4013',
      kind: 'rate_limit',
    });
  });

  it('throws an error event and a refusal answered as JSON instead of a stream', () => {
    const event = thrownBy(() => decode(fixture('stream-error-event.sse'), 7));
    expect((event as CozeReportedError).details).toMatchObject({ code: '4200', kind: 'not_found' });
    for (const size of [1, 1000]) {
      const refused = thrownBy(() => decode(fixture('refused-authentication.json'), size));
      expect(refused).toBeInstanceOf(CozeReportedError);
      expect((refused as CozeReportedError).details).toMatchObject({
        message: 'authentication is invalid',
        code: '4100',
        kind: 'authentication',
      });
    }
    expect(() => decode(Buffer.from('{"code":0}'))).toThrow(UpstreamFormatError);
  });

  it('reports a stream cut before the chat completed, and an empty one', () => {
    expect(() => decode(fixture('stream-cut-before-chat-completed.sse'))).toThrow(
      'ended before the chat completed',
    );
    expect(() => decode(fixture('stream-cut-before-chat-completed.sse'), 1)).toThrow(
      'ended before the chat completed',
    );
    expect(() => decode(Buffer.from('\n'))).toThrow('the Coze stream was empty');
  });
});
