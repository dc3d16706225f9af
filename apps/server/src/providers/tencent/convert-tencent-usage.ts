import type { TokenUsage } from '../../canonical/translation';
import type { HunyuanUsage } from './tencent-wire-types';

/** A count Hunyuan may send as a number or as the text of one (PromptTokensDetails.CachedTokens). */
function countOf(value: unknown): number {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) && number > 0 ? Math.round(number) : 0;
}

/**
 * Hunyuan's Usage as billed: PromptTokens and CompletionTokens, and the prompt tokens read from the cache
 * (PromptTokensDetails.CachedTokens, part of PromptTokens, which the API reference types as a string). The
 * thinking of hunyuan-t1 is part of CompletionTokens; no reasoning count is reported. Null without counts, so
 * the relay counts. In a stream every event carries the counts so far: the last one read is the total.
 */
export function convertTencentUsage(usage: HunyuanUsage | undefined): TokenUsage | null {
  if (!usage || typeof usage.PromptTokens !== 'number') return null;
  const completionTokens =
    typeof usage.CompletionTokens === 'number'
      ? usage.CompletionTokens
      : Math.max(0, (usage.TotalTokens ?? usage.PromptTokens) - usage.PromptTokens);
  const cacheReadTokens = Math.min(countOf(usage.PromptTokensDetails?.CachedTokens), usage.PromptTokens);
  return {
    promptTokens: usage.PromptTokens,
    completionTokens,
    ...(cacheReadTokens > 0 ? { cacheReadTokens } : {}),
  };
}
