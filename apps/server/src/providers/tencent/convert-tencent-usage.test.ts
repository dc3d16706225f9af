import { describe, expect, it } from 'vitest';
import { convertTencentUsage } from './convert-tencent-usage';

describe('Hunyuan’s usage as billed tokens', () => {
  it('takes prompt and completion tokens', () => {
    expect(convertTencentUsage({ PromptTokens: 72, CompletionTokens: 26, TotalTokens: 98 })).toEqual({
      promptTokens: 72,
      completionTokens: 26,
    });
  });

  it('reads the cached prompt tokens, sent as text or as a number', () => {
    const usage = { PromptTokens: 3000, CompletionTokens: 20, TotalTokens: 3020 };
    expect(convertTencentUsage({ ...usage, PromptTokensDetails: { CachedTokens: '2048' } })).toEqual({
      promptTokens: 3000,
      completionTokens: 20,
      cacheReadTokens: 2048,
    });
    expect(
      convertTencentUsage({ ...usage, PromptTokensDetails: { CachedTokens: 2048 } })?.cacheReadTokens,
    ).toBe(2048);
    expect(convertTencentUsage({ ...usage, PromptTokensDetails: { CachedTokens: '0' } })).toEqual({
      promptTokens: 3000,
      completionTokens: 20,
    });
  });

  it('counts embeddings’ tokens as prompt tokens', () => {
    expect(convertTencentUsage({ PromptTokens: 8, TotalTokens: 8 })).toEqual({
      promptTokens: 8,
      completionTokens: 0,
    });
  });

  it('is null without counts, so the relay counts the tokens itself', () => {
    expect(convertTencentUsage(undefined)).toBeNull();
    expect(convertTencentUsage({ TotalTokens: 5 })).toBeNull();
  });
});
