import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SseEventSplitter } from '../../relay/sse-event-splitter';
import { createAnthropicStreamDecoder } from './anthropic-stream-decoder';
import { createAnthropicUsageSniffer, readAnthropicUsage } from './read-anthropic-usage';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

function sniff(name: string) {
  const splitter = new SseEventSplitter();
  const sniffer = createAnthropicUsageSniffer();
  for (const data of [...splitter.push(fixture(name)), ...splitter.end()]) sniffer.read(data);
  return sniffer.usage();
}

describe('usage of Anthropic answers forwarded as they came', () => {
  it('reads the usage of a JSON answer', () => {
    expect(readAnthropicUsage(fixture('message-with-cache-usage.json'))).toEqual({
      promptTokens: 190155,
      completionTokens: 393,
      cacheReadTokens: 2048,
      cacheWriteTokens: 188086,
    });
    expect(readAnthropicUsage(fixture('error-overloaded.json'))).toBeNull();
    expect(readAnthropicUsage(Buffer.from('not json'))).toBeNull();
  });

  it.each(['stream-text.sse', 'stream-tool-use.sse', 'stream-web-search-with-cache-usage.sse'])(
    'sniffs the same usage from %s as the full decoder reads',
    (name) => {
      const decoder = createAnthropicStreamDecoder();
      decoder.push(fixture(name));
      decoder.end();
      expect(sniff(name)).toEqual(decoder.usage());
      expect(sniff(name)).not.toBeNull();
    },
  );

  it('is not fooled by an event name inside generated text, and has nothing before message_start', () => {
    const sniffer = createAnthropicUsageSniffer();
    expect(sniffer.usage()).toBeNull();
    sniffer.read(
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"{\\"type\\":\\"message_delta\\",\\"usage\\":{\\"output_tokens\\":999}}"}}',
    );
    expect(sniffer.usage()).toBeNull();
  });
});
