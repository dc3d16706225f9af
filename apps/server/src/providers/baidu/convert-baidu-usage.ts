import type { TokenUsage } from '../../canonical/translation';
import type { BaiduUsage } from './baidu-wire-types';

/**
 * ERNIE's usage as billed: prompt_tokens (the whole conversation sent) and completion_tokens; ERNIE reports no
 * cache or reasoning counts. Null when the answer has no usage, so the relay counts the tokens itself. In a
 * stream every event carries the counts so far: the last one read is the total.
 */
export function convertBaiduUsage(usage: BaiduUsage | undefined): TokenUsage | null {
  if (!usage || typeof usage.prompt_tokens !== 'number') return null;
  const completionTokens =
    typeof usage.completion_tokens === 'number'
      ? usage.completion_tokens
      : Math.max(0, (usage.total_tokens ?? usage.prompt_tokens) - usage.prompt_tokens);
  return { promptTokens: usage.prompt_tokens, completionTokens };
}
