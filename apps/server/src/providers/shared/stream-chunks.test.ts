import { describe, expect, it } from 'vitest';
import { deltaChunk, finishChunks, usageChunk } from './stream-chunks';

const head = { id: 'c1', created: 1700000000, model: 'm' };
const usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 };

describe('stream chunks', () => {
  it('puts the delta and finish reason on choice 0, keys in OpenAI order', () => {
    expect(JSON.stringify(deltaChunk(head, { content: 'hi' }))).toBe(
      '{"id":"c1","object":"chat.completion.chunk","created":1700000000,"model":"m",' +
        '"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":null}]}',
    );
    expect(deltaChunk(head, {}, 'stop').choices[0]?.finish_reason).toBe('stop');
  });

  it('answers the usage on a choice-less chunk', () => {
    expect(JSON.stringify(usageChunk(head, usage))).toBe(
      '{"id":"c1","object":"chat.completion.chunk","created":1700000000,"model":"m","choices":[],' +
        '"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}',
    );
  });

  it('ends with the finish reason, and the usage only when known', () => {
    expect(finishChunks(head, 'length', usage)).toEqual([
      deltaChunk(head, {}, 'length'),
      usageChunk(head, usage),
    ]);
    expect(finishChunks(head, 'stop', null)).toEqual([deltaChunk(head, {}, 'stop')]);
  });
});
