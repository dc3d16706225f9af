import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatChunk } from '../../canonical/chat';
import { UpstreamFormatError } from '../../canonical/translation';
import { readDeepLResponse } from './convert-deepl-response';
import { convertDeepLUsage } from './convert-deepl-usage';
import { createDeepLStreamDecoder } from './deepl-stream-decoder';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

function decode(bytes: Buffer, size = bytes.length) {
  const decoder = createDeepLStreamDecoder();
  const chunks: ChatChunk[] = [];
  for (let offset = 0; offset < bytes.length; offset += size)
    chunks.push(...decoder.push(bytes.subarray(offset, offset + size)));
  chunks.push(...decoder.end());
  return { chunks, usage: decoder.usage() };
}

describe('DeepL translation → chat answer', () => {
  it('answers the translation as the content, billed characters as prompt tokens', () => {
    const { completion, usage } = readDeepLResponse(fixture('translate-zh.json'));
    expect(completion.choices).toEqual([
      { index: 0, message: { role: 'assistant', content: '你好，世界！' }, finish_reason: 'stop' },
    ]);
    expect(usage).toEqual({ promptTokens: 13, completionTokens: 0 });
    expect(completion.usage).toEqual({ prompt_tokens: 13, completion_tokens: 0, total_tokens: 13 });
  });

  it('streams the whole translation as one content chunk, then stop and usage, however the bytes came', () => {
    const strip = (chunks: ChatChunk[]) => chunks.map((chunk) => ({ ...chunk, id: '', created: 0 }));
    const whole = decode(fixture('translate-zh.json'));
    expect(strip(decode(fixture('translate-zh.json'), 1).chunks)).toEqual(strip(whole.chunks));
    expect(whole.chunks.map((chunk) => chunk.choices[0] ?? chunk.usage)).toEqual([
      { index: 0, delta: { role: 'assistant', content: '你好，世界！' }, finish_reason: null },
      { index: 0, delta: {}, finish_reason: 'stop' },
      { prompt_tokens: 13, completion_tokens: 0, total_tokens: 13 },
    ]);
    expect(whole.usage).toEqual({ promptTokens: 13, completionTokens: 0 });
  });

  it('counts the source characters itself when DeepL names no billed characters', () => {
    const answer = JSON.parse(fixture('translate-without-billed-characters.json').toString('utf8'));
    expect(convertDeepLUsage(answer, 'Hallo, Welt! 👋')).toEqual({ promptTokens: 14, completionTokens: 0 });
    expect(readDeepLResponse(fixture('translate-without-billed-characters.json')).usage).toBeNull();
  });

  it('refuses an answer without translations', () => {
    expect(() => readDeepLResponse(Buffer.from('{"translations":[{}]}'))).toThrow(UpstreamFormatError);
    expect(() => decode(Buffer.from('{"transl'))).toThrow(UpstreamFormatError);
  });
});
