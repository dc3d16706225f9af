import { describe, expect, it } from 'vitest';
import { convertGeminiChatUsage, convertGeminiUsage } from './convert-gemini-usage';

describe('convertGeminiUsage (billing depends on it)', () => {
  it.each([
    [
      'text only',
      { promptTokenCount: 8, candidatesTokenCount: 17, totalTokenCount: 25 },
      { promptTokens: 8, completionTokens: 17 },
    ],
    [
      'thinking is output, apart from the candidates',
      { promptTokenCount: 92, candidatesTokenCount: 38, thoughtsTokenCount: 84, totalTokenCount: 214 },
      { promptTokens: 92, completionTokens: 122, reasoningTokens: 84 },
    ],
    [
      'cached tokens are part of the prompt',
      {
        promptTokenCount: 2076,
        cachedContentTokenCount: 2048,
        candidatesTokenCount: 11,
        totalTokenCount: 2087,
      },
      { promptTokens: 2076, completionTokens: 11, cacheReadTokens: 2048 },
    ],
    [
      'what Google’s tools fed back to the model is input',
      {
        promptTokenCount: 30,
        toolUsePromptTokenCount: 1200,
        candidatesTokenCount: 90,
        totalTokenCount: 1320,
      },
      { promptTokens: 1230, completionTokens: 90 },
    ],
    [
      'a blocked prompt counts only its input',
      { promptTokenCount: 11, totalTokenCount: 11 },
      { promptTokens: 11, completionTokens: 0 },
    ],
    ['only a total: all of it is input', { totalTokenCount: 5 }, { promptTokens: 5, completionTokens: 0 }],
    [
      'fractional or negative counts',
      { promptTokenCount: 3.6, candidatesTokenCount: -2 },
      { promptTokens: 4, completionTokens: 0 },
    ],
  ])('%s', (_, metadata, expected) => {
    expect(convertGeminiUsage(metadata)).toEqual(expected);
  });

  it('is null without counts', () => {
    expect(convertGeminiUsage(undefined)).toBeNull();
    expect(convertGeminiUsage({})).toBeNull();
    expect(convertGeminiUsage({ promptTokenCount: 'many' })).toBeNull();
  });

  it('reports the same counts in OpenAI’s shape, with cache, reasoning, audio and image details', () => {
    expect(
      convertGeminiChatUsage({
        promptTokenCount: 1900,
        cachedContentTokenCount: 1024,
        candidatesTokenCount: 40,
        thoughtsTokenCount: 60,
        promptTokensDetails: [
          { modality: 'TEXT', tokenCount: 20 },
          { modality: 'IMAGE', tokenCount: 258 },
          { modality: 'AUDIO', tokenCount: 1622 },
        ],
      }),
    ).toEqual({
      prompt_tokens: 1900,
      completion_tokens: 100,
      total_tokens: 2000,
      prompt_tokens_details: { cached_tokens: 1024, audio_tokens: 1622, image_tokens: 258 },
      completion_tokens_details: { reasoning_tokens: 60 },
    });
    expect(convertGeminiChatUsage(undefined)).toBeUndefined();
  });
});
