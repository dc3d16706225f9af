import type { TokenUsage } from '../../canonical/translation';
import type { HunyuanUsage } from './tencent-wire-types';

/**
 * Hunyuan's Usage as billed: PromptTokens and CompletionTokens (Hunyuan reports no cache or reasoning counts;
 * the thinking of hunyuan-t1 is part of CompletionTokens). Null without counts, so the relay counts. In a
 * stream every event carries the counts so far: the last one read is the total.
 */
export function convertTencentUsage(usage: HunyuanUsage | undefined): TokenUsage | null {
  if (!usage || typeof usage.PromptTokens !== 'number') return null;
  const completionTokens =
    typeof usage.CompletionTokens === 'number'
      ? usage.CompletionTokens
      : Math.max(0, (usage.TotalTokens ?? usage.PromptTokens) - usage.PromptTokens);
  return { promptTokens: usage.PromptTokens, completionTokens };
}
