import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SseEventSplitter } from '../../relay/sse-event-splitter';
import { createGeminiStreamUsageSniffer, readGeminiUsage } from './read-gemini-usage';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('usage of forwarded Gemini answers (pass-through lane)', () => {
  it('reads the usage of a generateContent answer', () => {
    expect(readGeminiUsage(fixture('generate-content-thinking-usage.json'))).toEqual({
      promptTokens: 2076,
      completionTokens: 323,
      cacheReadTokens: 2048,
      reasoningTokens: 312,
    });
    expect(readGeminiUsage('{"candidates":[]}')).toBeNull();
  });

  it('takes the last usage of a JSON array stream and never a key quoted inside text', () => {
    const array = JSON.stringify([
      {
        candidates: [{ content: { parts: [{ text: 'say "usageMetadata": {}' }] } }],
        usageMetadata: { promptTokenCount: 4 },
      },
      {
        candidates: [{ content: { parts: [{ text: '"usageMetadata":{"promptTokenCount":999}' }] } }],
        usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 6 },
      },
    ]);
    expect(readGeminiUsage(array)).toEqual({ promptTokens: 4, completionTokens: 6 });
    expect(readGeminiUsage('{"text":"\\"usageMetadata\\": {\\"promptTokenCount\\": 1}"}')).toBeNull();
  });

  it('sniffs the last usage of an alt=sse stream from its data payloads', () => {
    const splitter = new SseEventSplitter();
    const sniffer = createGeminiStreamUsageSniffer();
    for (const data of [...splitter.push(fixture('stream-function-call.sse')), ...splitter.end()])
      sniffer.read(data);
    expect(sniffer.usage()).toEqual({ promptTokens: 61, completionTokens: 92, reasoningTokens: 68 });
    const quiet = createGeminiStreamUsageSniffer();
    quiet.read('{"candidates":[]}');
    expect(quiet.usage()).toBeNull();
  });
});
