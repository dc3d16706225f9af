import type { TokenUsage } from '../../canonical/translation';
import type { DashScopeUsage } from './dashscope-wire-types';

const positive = (value: unknown): number | undefined =>
  typeof value === 'number' && value > 0 ? value : undefined;

/**
 * DashScope's usage as billed: input_tokens (context-cache reads, prompt_tokens_details.cached_tokens, and the
 * multimodal endpoint's image tokens, image_tokens, are parts of them) and output_tokens (thinking,
 * output_tokens_details.reasoning_tokens, is part of them). Image tokens are priced by ImageInputRatio (1, the
 * text price, unless set: qwen-vl bills an image's tokens as input). Null without counts, so the relay counts.
 * With incremental_output every stream event carries the counts so far: the last one read is the total.
 */
export function convertDashScopeUsage(usage: DashScopeUsage | undefined): TokenUsage | null {
  if (!usage || typeof usage.input_tokens !== 'number') return null;
  const cacheReadTokens = positive(usage.prompt_tokens_details?.cached_tokens);
  const reasoningTokens = positive(usage.output_tokens_details?.reasoning_tokens);
  const images = positive(usage.image_tokens ?? usage.input_tokens_details?.image_tokens);
  const imageInputTokens = images === undefined ? undefined : Math.min(images, usage.input_tokens);
  return {
    promptTokens: usage.input_tokens,
    completionTokens:
      usage.output_tokens ?? Math.max(0, (usage.total_tokens ?? usage.input_tokens) - usage.input_tokens),
    ...(cacheReadTokens !== undefined ? { cacheReadTokens } : {}),
    ...(reasoningTokens !== undefined ? { reasoningTokens } : {}),
    ...(imageInputTokens ? { imageInputTokens } : {}),
  };
}
