import { describe, expect, it } from 'vitest';
import { computeReservation, computeTokenCost } from '../src/billing/quota-cost';
import { convertGeminiUsage } from '../src/providers/gemini/convert-gemini-usage';
import { convertOpenAIUsage } from '../src/providers/openai-compatible/convert-openai-usage';

const audioPreview = {
  modelRatio: 1.25,
  completionRatio: 4,
  cacheReadRatio: 0.5,
  cacheWriteRatio: 1,
  audioInputRatio: 16,
  imageInputRatio: 1,
  audioOutputRatio: 8,
  imageOutputRatio: 1,
  groupRatio: 1,
};

describe('audio and image tokens', () => {
  it('reads them from an OpenAI usage object and prices them by their own ratios', () => {
    const usage = convertOpenAIUsage({
      prompt_tokens: 1000,
      completion_tokens: 500,
      total_tokens: 1500,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 600 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 400 },
    });
    expect(usage).toEqual({
      promptTokens: 1000,
      completionTokens: 500,
      audioInputTokens: 600,
      audioOutputTokens: 400,
    });
    // (400 text + 600 × 16 + (100 text + 400 × 8) × 4) × 1.25 = (400 + 9600 + 13200) × 1.25 = 29000
    expect(computeTokenCost(audioPreview, usage!)).toBe(29000);
    // the reservation covers the dearest kind of every token
    expect(computeReservation(audioPreview, 0, 1000, 500)).toBeGreaterThanOrEqual(29000);
  });

  it('reads Gemini modalities, leaving cached media to the cache read', () => {
    expect(
      convertGeminiUsage({
        promptTokenCount: 900,
        candidatesTokenCount: 50,
        cachedContentTokenCount: 200,
        promptTokensDetails: [
          { modality: 'TEXT', tokenCount: 100 },
          { modality: 'AUDIO', tokenCount: 500 },
          { modality: 'IMAGE', tokenCount: 300 },
        ],
        cacheTokensDetails: [{ modality: 'AUDIO', tokenCount: 200 }],
        candidatesTokensDetails: [{ modality: 'IMAGE', tokenCount: 40 }],
      }),
    ).toEqual({
      promptTokens: 900,
      completionTokens: 50,
      cacheReadTokens: 200,
      audioInputTokens: 300,
      imageInputTokens: 300,
      imageOutputTokens: 40,
    });
  });
});
