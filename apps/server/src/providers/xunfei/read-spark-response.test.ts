import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatChunk } from '../../canonical/chat';
import { readSparkResponse } from './read-spark-response';
import { SparkReportedError } from './spark-reported-error';
import { createSparkStreamDecoder } from './spark-stream-decoder';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

function decode(bytes: Buffer, size = bytes.length) {
  const decoder = createSparkStreamDecoder();
  const chunks: ChatChunk[] = [];
  for (let offset = 0; offset < bytes.length; offset += size)
    chunks.push(...decoder.push(bytes.subarray(offset, offset + size)));
  chunks.push(...decoder.end());
  return {
    text: chunks.flatMap((chunk) => chunk.choices.map((c) => c.delta.content ?? '')).join(''),
    usage: decoder.usage(),
  };
}

describe('a Spark answer, whichever API gave it', () => {
  it('collects WebSocket frames into one completion for a non-stream client', () => {
    const { completion, usage } = readSparkResponse(fixture('frames-text.ndjson'));
    expect(completion.choices).toEqual([
      {
        index: 0,
        message: { role: 'assistant', content: '你好！我是讯飞星火认知大模型，很高兴为你服务 👋' },
        finish_reason: 'stop',
      },
    ]);
    expect(usage).toEqual({ promptTokens: 5, completionTokens: 9 });
  });

  it("reads the HTTP API's OpenAI-style JSON, and refuses one carrying Spark's error code", () => {
    const { completion, usage } = readSparkResponse(fixture('http-answer.json'));
    expect(completion.choices[0].message.content).toBe('你好，我是由科大讯飞构建的星火认知智能模型。');
    expect(usage).toEqual({ promptTokens: 6, completionTokens: 42 });
    expect(() => readSparkResponse(fixture('http-refused-input.json'))).toThrow(SparkReportedError);
  });

  it('streams frames and server-sent events alike, telling them apart by the first byte', () => {
    for (const size of [1, 4096]) {
      expect(decode(fixture('frames-text.ndjson'), size)).toEqual({
        text: '你好！我是讯飞星火认知大模型，很高兴为你服务 👋',
        usage: { promptTokens: 5, completionTokens: 9 },
      });
      expect(decode(fixture('http-stream.sse'), size)).toEqual({
        text: '你好，有什么可以帮你？',
        usage: { promptTokens: 6, completionTokens: 9 },
      });
    }
  });
});
