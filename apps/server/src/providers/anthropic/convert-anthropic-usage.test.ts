import { describe, expect, it } from 'vitest';
import { convertAnthropicUsage, convertToChatUsage, mergeAnthropicUsage } from './convert-anthropic-usage';

describe('Anthropic usage → billed tokens', () => {
  it.each([
    ['no cache', { input_tokens: 100, output_tokens: 20 }, { promptTokens: 100, completionTokens: 20 }],
    [
      'a cache write',
      { input_tokens: 10, cache_creation_input_tokens: 1500, cache_read_input_tokens: 0, output_tokens: 5 },
      { promptTokens: 1510, completionTokens: 5, cacheWriteTokens: 1500 },
    ],
    [
      'a cache read',
      { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 1500, output_tokens: 5 },
      { promptTokens: 1510, completionTokens: 5, cacheReadTokens: 1500 },
    ],
    [
      'null cache counts, as message_delta may send them',
      { input_tokens: 7, cache_creation_input_tokens: null, cache_read_input_tokens: null, output_tokens: 3 },
      { promptTokens: 7, completionTokens: 3 },
    ],
    [
      'thinking tokens',
      { input_tokens: 7, output_tokens: 300, output_tokens_details: { thinking_tokens: 250 } },
      { promptTokens: 7, completionTokens: 300, reasoningTokens: 250 },
    ],
  ])('%s', (_name, usage, expected) => {
    expect(convertAnthropicUsage(usage)).toEqual(expected);
  });

  it('answers null for what is not a usage object', () => {
    expect(convertAnthropicUsage(undefined)).toBeNull();
    expect(convertAnthropicUsage({ foo: 1 })).toBeNull();
    expect(convertAnthropicUsage('12')).toBeNull();
  });

  it("keeps the input counts of message_start when message_delta's are null, and takes its newer ones", () => {
    const start = mergeAnthropicUsage(null, {
      input_tokens: 20,
      cache_read_input_tokens: 5,
      output_tokens: 1,
    });
    const end = mergeAnthropicUsage(start, {
      input_tokens: null,
      cache_read_input_tokens: 8,
      output_tokens: 40,
    });
    expect(convertAnthropicUsage(end)).toEqual({
      promptTokens: 28,
      completionTokens: 40,
      cacheReadTokens: 8,
    });
  });

  it("gives OpenAI's usage shape with the cache counts as prompt details", () => {
    expect(convertToChatUsage({ promptTokens: 30, completionTokens: 4, cacheReadTokens: 20 })).toEqual({
      prompt_tokens: 30,
      completion_tokens: 4,
      total_tokens: 34,
      prompt_tokens_details: { cached_tokens: 20, cache_creation_tokens: 0 },
    });
  });
});
