import { describe, expect, it } from 'vitest';
import { convertDashScopeUsage } from './convert-dashscope-usage';

describe('DashScope’s usage as billed tokens', () => {
  it('takes input and output tokens, and the cache reads and thinking that are parts of them', () => {
    expect(convertDashScopeUsage({ input_tokens: 22, output_tokens: 17, total_tokens: 39 })).toEqual({
      promptTokens: 22,
      completionTokens: 17,
    });
    expect(
      convertDashScopeUsage({
        input_tokens: 2100,
        output_tokens: 70,
        prompt_tokens_details: { cached_tokens: 2048 },
        output_tokens_details: { reasoning_tokens: 64 },
      }),
    ).toEqual({ promptTokens: 2100, completionTokens: 70, cacheReadTokens: 2048, reasoningTokens: 64 });
  });

  it('takes the multimodal endpoint’s image tokens as image input, flat or in input_tokens_details', () => {
    expect(convertDashScopeUsage({ input_tokens: 1277, output_tokens: 81, image_tokens: 1247 })).toEqual({
      promptTokens: 1277,
      completionTokens: 81,
      imageInputTokens: 1247,
    });
    expect(
      convertDashScopeUsage({
        input_tokens: 40,
        output_tokens: 5,
        input_tokens_details: { text_tokens: 6, image_tokens: 34 },
      })?.imageInputTokens,
    ).toBe(34);
  });

  it('leaves zero details out and is null without counts', () => {
    expect(
      convertDashScopeUsage({
        input_tokens: 5,
        output_tokens: 1,
        prompt_tokens_details: { cached_tokens: 0 },
      }),
    ).toEqual({
      promptTokens: 5,
      completionTokens: 1,
    });
    expect(convertDashScopeUsage(undefined)).toBeNull();
    expect(convertDashScopeUsage({ total_tokens: 4 })).toBeNull();
  });
});
