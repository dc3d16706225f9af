import { describe, expect, it } from 'vitest';
import { convertBaiduUsage } from './convert-baidu-usage';

describe('ERNIE’s usage as billed tokens', () => {
  it('takes prompt and completion tokens', () => {
    expect(convertBaiduUsage({ prompt_tokens: 95, completion_tokens: 46, total_tokens: 141 })).toEqual({
      promptTokens: 95,
      completionTokens: 46,
    });
  });

  it('derives the completion from the total when it is missing (embeddings count the prompt only)', () => {
    expect(convertBaiduUsage({ prompt_tokens: 12, total_tokens: 12 })).toEqual({
      promptTokens: 12,
      completionTokens: 0,
    });
    expect(convertBaiduUsage({ prompt_tokens: 10, total_tokens: 14 })).toEqual({
      promptTokens: 10,
      completionTokens: 4,
    });
  });

  it('is null without counts, so the relay counts the tokens itself', () => {
    expect(convertBaiduUsage(undefined)).toBeNull();
    expect(convertBaiduUsage({})).toBeNull();
  });
});
