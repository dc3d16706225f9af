import { describe, expect, it } from 'vitest';
import { readVertexFixture } from '../../../test/support/vertex-stand-in';
import type { ChatChunk } from '../../canonical/chat';
import { UpstreamFormatError } from '../../canonical/translation';
import { createVertexStreamDecoder } from './vertex-stream-decoder';

/** Feeds a transcript in pieces of `size` bytes (cutting events, lines and characters anywhere). */
function decode(bytes: Buffer, size: number) {
  const decoder = createVertexStreamDecoder();
  const chunks: ChatChunk[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(...decoder.push(bytes.subarray(at, at + size)));
  chunks.push(...decoder.end());
  const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
  const finish = chunks.map((chunk) => chunk.choices[0]?.finish_reason).find(Boolean);
  return { text, finish, usage: decoder.usage(), chunks };
}

describe('Vertex AI streams, Claude or Gemini', () => {
  const claude = readVertexFixture('stream-raw-predict-text.sse');
  const gemini = readVertexFixture('stream-generate-content-text.sse');

  it.each([1, 7, 64, 100_000])("decodes Claude's streamRawPredict events fed %i bytes at a time", (size) => {
    const { text, finish, usage, chunks } = decode(claude, size);
    expect(text).toBe('Bonjour ! Un café ☕ pour vous.');
    expect(finish).toBe('stop');
    expect(usage).toEqual({ promptTokens: 14, completionTokens: 12 });
    expect(chunks[0]?.id).toBe('msg_vrtx_01Hx2T9sWbJpD3kKqW4dN8aF');
  });

  it.each([1, 7, 64, 100_000])("decodes Gemini's alt=sse events fed %i bytes at a time", (size) => {
    const { text, finish, usage } = decode(gemini, size);
    expect(text).toBe('Bonjour ! Un café ☕ pour vous.');
    expect(finish).toBe('stop');
    expect(usage).toEqual({ promptTokens: 7, completionTokens: 24, reasoningTokens: 15 });
  });

  it('knows a Claude stream whose event lines a proxy dropped by the type in its data', () => {
    const withoutNames = Buffer.from(claude.toString('utf8').replace(/^event: .*\n/gm, ''));
    expect(decode(withoutNames, 50).text).toBe('Bonjour ! Un café ☕ pour vous.');
  });

  it('skips comments before the first event', () => {
    const commented = Buffer.concat([Buffer.from(': keep-alive\n\n'), gemini]);
    expect(decode(commented, 5).text).toBe('Bonjour ! Un café ☕ pour vous.');
  });

  it('reports nothing before it knows the stream, and refuses a stream without any event', () => {
    const decoder = createVertexStreamDecoder();
    expect(decoder.push(claude.subarray(0, 20))).toEqual([]);
    expect(decoder.usage()).toBeNull();
    expect(() => createVertexStreamDecoder().end()).toThrow(UpstreamFormatError);
  });

  it('still notices a Claude stream cut before message_stop', () => {
    const cut = claude.subarray(0, claude.indexOf('event: message_delta'));
    expect(() => decode(cut, 64)).toThrow(UpstreamFormatError);
  });
});
