import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatChunk } from '../../canonical/chat';
import { UpstreamFormatError } from '../../canonical/translation';
import { createSparkFrameDecoder } from './spark-frame-decoder';
import { SparkReportedError } from './spark-reported-error';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

function decode(bytes: Buffer, size = bytes.length) {
  const decoder = createSparkFrameDecoder();
  const chunks: ChatChunk[] = [];
  for (let offset = 0; offset < bytes.length; offset += size)
    chunks.push(...decoder.push(bytes.subarray(offset, offset + size)));
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

const text = (chunks: ChatChunk[]) =>
  chunks.flatMap((chunk) => chunk.choices.map((c) => c.delta.content ?? '')).join('');
const finishReasons = (chunks: ChatChunk[]) =>
  chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.finish_reason)).filter(Boolean);

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return null;
}

describe('Spark answer frames → canonical chunks', () => {
  it('decodes the frames, however their bytes are cut, into role, content, stop and usage', () => {
    const { chunks, usage } = replay('frames-text.ndjson');
    expect(chunks[0]).toMatchObject({
      id: 'cht000cb087@dx18793cd421fb894542',
      choices: [{ delta: { role: 'assistant', content: '' } }],
    });
    expect(text(chunks)).toBe('你好！我是讯飞星火认知大模型，很高兴为你服务 👋');
    expect(finishReasons(chunks)).toEqual(['stop']);
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 },
    });
    expect(usage).toEqual({ promptTokens: 5, completionTokens: 9 });
  });

  it('gives a function call as one whole tool call with an id made from the sid, and finishes with tool_calls', () => {
    const { chunks, usage } = replay('frames-function-call.ndjson');
    const calls = chunks.flatMap((chunk) => chunk.choices.flatMap((choice) => choice.delta.tool_calls ?? []));
    expect(calls).toEqual([
      {
        index: 0,
        id: 'call_cht000b41d5@dx18b4e2f2f41b894542',
        type: 'function',
        function: { name: '天气查询', arguments: '{"datetime":"今天","location":"合肥"}' },
      },
    ]);
    expect(finishReasons(chunks)).toEqual(['tool_calls']);
    expect(usage).toEqual({ promptTokens: 189, completionTokens: 24 });
  });

  it("ends an answer iFlytek's review stopped (10014) with content_filter, keeping what came before", () => {
    const { chunks, usage } = replay('frames-output-review.ndjson');
    expect(text(chunks)).toBe('关于这个问题，');
    expect(finishReasons(chunks)).toEqual(['content_filter']);
    expect(usage).toBeNull();
  });

  it('answers what came before an engine error, then throws it with its kind', () => {
    const decoder = createSparkFrameDecoder();
    expect(text(decoder.push(fixture('frames-engine-error.ndjson')))).toBe('Once');
    const error = thrownBy(() => decoder.end());
    expect(error).toBeInstanceOf(SparkReportedError);
    expect((error as SparkReportedError).details).toMatchObject({ code: '10012', kind: 'server' });
  });

  it('throws an error frame that comes first, and reports a cut or empty answer', () => {
    const licence = thrownBy(() => decode(fixture('frame-error-no-licence.ndjson')));
    expect((licence as SparkReportedError).details).toMatchObject({ code: '11200', kind: 'authentication' });
    expect(() => decode(fixture('frames-cut-before-last.ndjson'))).toThrow('ended before its last frame');
    expect(() => decode(fixture('frames-cut-before-last.ndjson'), 1)).toThrow(UpstreamFormatError);
    expect(() => decode(Buffer.from(''))).toThrow('the iFlytek Spark answer was empty');
  });
});
