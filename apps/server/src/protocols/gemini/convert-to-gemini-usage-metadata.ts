import type { ChatUsage } from '../../canonical/chat';
import type { GeminiUsageMetadata } from '../../providers/gemini/gemini-wire-types';

/**
 * Canonical usage as Gemini's usageMetadata (https://ai.google.dev/api/generate-content#UsageMetadata).
 * Gemini counts thoughts apart from the candidates, where OpenAI's completion_tokens include reasoning, so
 * candidatesTokenCount is the completion without it; promptTokenCount, like prompt_tokens, includes the
 * cached tokens.
 */
export function convertToGeminiUsageMetadata(usage: ChatUsage): GeminiUsageMetadata {
  const thoughts = usage.completion_tokens_details?.reasoning_tokens ?? 0;
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    promptTokenCount: usage.prompt_tokens,
    candidatesTokenCount: Math.max(0, usage.completion_tokens - thoughts),
    totalTokenCount: usage.prompt_tokens + usage.completion_tokens,
    ...(cached > 0 ? { cachedContentTokenCount: cached } : {}),
    ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
  };
}
