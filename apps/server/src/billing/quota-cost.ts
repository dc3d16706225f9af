import type { TokenUsage } from '../providers/provider-types';
import type { Pricing } from './pricing';

/** Ratios are decimals (0.075 × 1000 = 75.00000000000001): round away float noise before ceil. */
function ceilQuota(value: number): number {
  return value <= 0 ? 0 : Math.ceil(Math.round(value * 1e6) / 1e6);
}

/**
 * DESIGN.md: ceil((prompt + completion × completion_ratio) × model_ratio × group_ratio), at least 1 when
 * tokens were used at a non-zero price.
 */
export function computeTokenCost(pricing: Pricing, usage: TokenUsage): number {
  const weighted = usage.promptTokens + usage.completionTokens * pricing.completionRatio;
  const cost = ceilQuota(weighted * pricing.modelRatio * pricing.groupRatio);
  return weighted > 0 && pricing.modelRatio > 0 && pricing.groupRatio > 0 ? Math.max(1, cost) : cost;
}

/**
 * DESIGN.md: (PreConsumedQuota + prompt_tokens + max_tokens × completion_ratio) × model_ratio × group_ratio.
 * With max_tokens set this covers the worst case, so the settled cost never exceeds it.
 */
export function computeReservation(
  pricing: Pricing,
  preConsumedQuota: number,
  promptTokens: number,
  maxTokens: number,
): number {
  const tokens = Math.max(0, preConsumedQuota) + promptTokens + maxTokens * pricing.completionRatio;
  return ceilQuota(tokens * pricing.modelRatio * pricing.groupRatio);
}

/**
 * Images are priced per picture: the model ratio is dollars per standard image ÷ 0.002, i.e. ratio × 1000
 * quota each, times the size and quality multiplier.
 */
export function computeImageCost(pricing: Pricing, images: number, multiplier: number): number {
  return ceilQuota(pricing.modelRatio * 1000 * multiplier * images * pricing.groupRatio);
}
