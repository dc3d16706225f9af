import { readFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { ChatChunk } from '../../canonical/chat';
import { UpstreamFormatError } from '../../canonical/translation';
import { encodeBedrockEvents, type BedrockStreamFixtureEvent } from '../../../test/support/bedrock-stand-in';
import { BedrockStreamError } from './map-bedrock-error';
import { createBedrockStreamDecoder } from './bedrock-stream-decoder';

const fixturePath = (name: string) => new URL(`./__fixtures__/${name}`, import.meta.url);
const transcript = (name: string) =>
  encodeBedrockEvents(JSON.parse(readFileSync(fixturePath(name), 'utf8')) as BedrockStreamFixtureEvent[]);

/** Feeds the bytes `size` at a time, as the network may cut them. */
function replay(bytes: Buffer, size: number) {
  const decoder = createBedrockStreamDecoder();
  const chunks: ChatChunk[] = [];
  for (let offset = 0; offset < bytes.length; offset += size)
    chunks.push(...decoder.push(bytes.subarray(offset, offset + size)));
  chunks.push(...decoder.end());
  return { chunks, usage: decoder.usage() };
}

const deltas = (chunks: ChatChunk[]) =>
  chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta));
const text = (chunks: ChatChunk[]) =>
  deltas(chunks)
    .map((delta) => delta.content ?? '')
    .join('');

describe('ConverseStream decoding', () => {
  it.each([1, 7, 1 << 20])('reads a text stream cut every %i bytes', (size) => {
    const { chunks, usage } = replay(transcript('stream-text.json'), size);
    expect(text(chunks)).toBe('Hello! How can I help you today? ✓');
    expect(chunks[0]!.choices[0]!.delta).toEqual({ role: 'assistant', content: '' });
    expect(chunks.map((chunk) => chunk.choices[0]?.finish_reason ?? null).filter(Boolean)).toEqual(['stop']);
    expect(usage).toEqual({ promptTokens: 12, completionTokens: 11 });
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toEqual({ prompt_tokens: 12, completion_tokens: 11, total_tokens: 23 });
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
    expect(chunks[0]!.object).toBe('chat.completion.chunk');
  });

  it('reads an event of megabytes cut into many small pieces', () => {
    const long = 'é'.repeat(1_000_000);
    const events: BedrockStreamFixtureEvent[] = [
      { eventType: 'messageStart', payload: { role: 'assistant' } },
      { eventType: 'contentBlockDelta', payload: { contentBlockIndex: 0, delta: { text: long } } },
      { eventType: 'contentBlockDelta', payload: { contentBlockIndex: 0, delta: { text: '!' } } },
      { eventType: 'contentBlockStop', payload: { contentBlockIndex: 0 } },
      { eventType: 'messageStop', payload: { stopReason: 'end_turn' } },
    ];
    const { chunks } = replay(encodeBedrockEvents(events), 1000);
    expect(text(chunks)).toBe(`${long}!`);
  });

  it('numbers tool calls in order and streams their arguments', () => {
    const { chunks } = replay(transcript('stream-tool-use.json'), 1);
    const calls = deltas(chunks).flatMap((delta) => delta.tool_calls ?? []);
    expect(calls[0]).toEqual({
      index: 0,
      id: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q',
      type: 'function',
      function: { name: 'top_song', arguments: '' },
    });
    const argumentsOf = (index: number) =>
      calls
        .filter((call) => call.index === index)
        .map((call) => call.function?.arguments ?? '')
        .join('');
    expect(argumentsOf(0)).toBe('{"sign": "WZPZ"}');
    expect(argumentsOf(1)).toBe('{"sign": "WKRP"}');
    expect(calls.find((call) => call.index === 1)?.id).toBe('tooluse_2ndCallForWKRP0000000');
    expect(text(chunks)).toBe('Checking WZPZ.');
    expect(chunks.some((chunk) => chunk.choices[0]?.finish_reason === 'tool_calls')).toBe(true);
  });

  it('streams thinking, its signature and redacted thinking, and bills the cache write', () => {
    const { chunks, usage } = replay(transcript('stream-thinking-cache-usage.json'), 3);
    const all = deltas(chunks);
    expect(all.map((delta) => delta.reasoning_content ?? '').join('')).toBe('27 * 453 = 12231.');
    expect(all.filter((delta) => delta.reasoning_signature)).toEqual([
      { reasoning_signature: 'ErUBCkYIBxgCIkCHwqtx5Zf8yqA1Iww0BAp0c2e9EXAMPLE' },
    ]);
    expect(all.filter((delta) => delta.redacted_thinking)).toEqual([
      { redacted_thinking: 'RXhhbXBsZSByZWRhY3RlZCB0aGlua2luZw==' },
    ]);
    expect(text(chunks)).toBe('12,231.');
    expect(chunks.some((chunk) => chunk.choices[0]?.finish_reason === 'length')).toBe(true);
    expect(usage).toEqual({ promptTokens: 2094, completionTokens: 120, cacheWriteTokens: 2048 });
  });

  it('throws the exception an exception event carries, after the chunks before it', () => {
    const decoder = createBedrockStreamDecoder();
    const bytes = transcript('stream-throttling-exception.json');
    const events: BedrockStreamFixtureEvent[] = JSON.parse(
      readFileSync(fixturePath('stream-throttling-exception.json'), 'utf8'),
    );
    const beforeException = encodeBedrockEvents(events.slice(0, 2)).length;
    expect(text(decoder.push(bytes.subarray(0, beforeException)))).toBe('Once upon');
    let thrown: unknown;
    try {
      decoder.push(bytes.subarray(beforeException));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(BedrockStreamError);
    expect(thrown).toBeInstanceOf(UpstreamFormatError);
    expect((thrown as BedrockStreamError).details).toEqual({
      message: 'Too many tokens, please wait before trying again.',
      type: 'ThrottlingException',
      code: 'ThrottlingException',
      kind: 'rate_limit',
    });
  });

  it('delivers the chunks before an exception that came in the same bytes, then throws it', () => {
    const decoder = createBedrockStreamDecoder();
    const chunks = decoder.push(transcript('stream-throttling-exception.json'));
    expect(text(chunks)).toBe('Once upon');
    expect(() => decoder.end()).toThrow(BedrockStreamError);
    expect(() => decoder.push(Buffer.alloc(0))).toThrow('ThrottlingException');
  });

  it('refuses a stream cut inside a frame, a damaged frame and a body that is no event stream', () => {
    const bytes = transcript('stream-text.json');
    const cut = createBedrockStreamDecoder();
    cut.push(bytes.subarray(0, bytes.length - 5));
    expect(() => cut.end()).toThrow(UpstreamFormatError);

    const damaged = Buffer.from(bytes);
    damaged[20] = damaged[20]! ^ 0xff;
    expect(() => createBedrockStreamDecoder().push(damaged)).toThrow(UpstreamFormatError);

    expect(() => createBedrockStreamDecoder().push(Buffer.from('{"message":"not a stream"}'))).toThrow(
      /not an AWS event stream/,
    );
  });

  it('decodes a hand-checked binary frame', () => {
    const frame = readFileSync(fixturePath('stream-message-start.bin'));
    // prelude: total length, headers length, CRC-32 of those 8 bytes; the message ends with the CRC-32 of the rest
    expect(frame.readUInt32BE(0)).toBe(frame.length);
    const headersLength = frame.readUInt32BE(4);
    expect(frame.readUInt32BE(8)).toBe(crc32(frame.subarray(0, 8)));
    expect(frame.readUInt32BE(frame.length - 4)).toBe(crc32(frame.subarray(0, frame.length - 4)));
    // first header: name length, name, type 7 (string), value length, value
    expect(frame.readUInt8(12)).toBe(':event-type'.length);
    expect(frame.toString('utf8', 13, 24)).toBe(':event-type');
    expect(frame.readUInt8(24)).toBe(7);
    expect(frame.readUInt16BE(25)).toBe('messageStart'.length);
    expect(frame.toString('utf8', 27, 39)).toBe('messageStart');
    const payload = frame.toString('utf8', 12 + headersLength, frame.length - 4);
    expect(JSON.parse(payload)).toEqual({ p: 'abcdefghij', role: 'assistant' });

    const decoder = createBedrockStreamDecoder();
    expect(deltas(decoder.push(frame))).toEqual([{ role: 'assistant', content: '' }]);
    expect(decoder.end()).toEqual([]);
    expect(decoder.usage()).toBeNull();
  });
});
