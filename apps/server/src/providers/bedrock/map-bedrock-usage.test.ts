import { describe, expect, it } from 'vitest';
import { mapBedrockUsage, toChatUsage } from './map-bedrock-usage';

describe('Bedrock usage → billed tokens', () => {
  it.each([
    [
      'plain',
      { inputTokens: 12, outputTokens: 10, totalTokens: 22 },
      { promptTokens: 12, completionTokens: 10 },
    ],
    [
      'cache read: the prompt counts the cached tokens too',
      {
        inputTokens: 14,
        outputTokens: 90,
        totalTokens: 3292,
        cacheReadInputTokens: 3188,
        cacheWriteInputTokens: 0,
      },
      { promptTokens: 3202, completionTokens: 90, cacheReadTokens: 3188 },
    ],
    [
      'cache write',
      { inputTokens: 46, outputTokens: 120, cacheWriteInputTokens: 2048 },
      { promptTokens: 2094, completionTokens: 120, cacheWriteTokens: 2048 },
    ],
    [
      'both',
      { inputTokens: 5, outputTokens: 1, cacheReadInputTokens: 100, cacheWriteInputTokens: 30 },
      { promptTokens: 135, completionTokens: 1, cacheReadTokens: 100, cacheWriteTokens: 30 },
    ],
    ['no output yet', { inputTokens: 5, outputTokens: 0 }, { promptTokens: 5, completionTokens: 0 }],
  ])('%s', (_name, usage, expected) => {
    expect(mapBedrockUsage(usage)).toEqual(expected);
  });

  it.each([
    [undefined],
    [null],
    [{}],
    [{ inputTokens: '5', outputTokens: 1 }],
    [{ inputTokens: -1, outputTokens: 1 }],
  ])('is null when the usage is missing or not counts: %j', (usage) => {
    expect(mapBedrockUsage(usage)).toBeNull();
  });

  it('becomes OpenAI usage with the cache details', () => {
    expect(
      toChatUsage({ promptTokens: 135, completionTokens: 1, cacheReadTokens: 100, cacheWriteTokens: 30 }),
    ).toEqual({
      prompt_tokens: 135,
      completion_tokens: 1,
      total_tokens: 136,
      prompt_tokens_details: { cached_tokens: 100, cache_creation_tokens: 30 },
    });
    expect(toChatUsage({ promptTokens: 3, completionTokens: 2 })).toEqual({
      prompt_tokens: 3,
      completion_tokens: 2,
      total_tokens: 5,
    });
  });
});
