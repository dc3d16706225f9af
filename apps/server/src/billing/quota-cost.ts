import type { TokenUsage } from '../providers/provider-types';
import type { Pricing } from './pricing';

/** Ratios are decimals (0.075 × 1000 = 75.00000000000001): round away float noise before ceil. */
function ceilQuota(value: number): number {
  return value <= 0 ? 0 : Math.ceil(Math.round(value * 1e6) / 1e6);
}

/** The prompt tokens that were neither read from nor written to the vendor's cache. */
export function freshPromptTokens(usage: TokenUsage): number {
  return Math.max(0, usage.promptTokens - (usage.cacheReadTokens ?? 0) - (usage.cacheWriteTokens ?? 0));
}

/**
 * ceil((fresh prompt + cache read × cache read ratio + cache write × cache write ratio + completion ×
 * completion ratio) × model ratio × group ratio), at least 1 when tokens were used at a non-zero price.
 * Reasoning tokens are part of the completion and priced as such. The consumption log records every term, so
 * this is the arithmetic a user can redo by hand.
 */
export function computeTokenCost(pricing: Pricing, usage: TokenUsage): number {
  const weighted =
    freshPromptTokens(usage) +
    (usage.cacheReadTokens ?? 0) * pricing.cacheReadRatio +
    (usage.cacheWriteTokens ?? 0) * pricing.cacheWriteRatio +
    usage.completionTokens * pricing.completionRatio;
  const cost = ceilQuota(weighted * pricing.modelRatio * pricing.groupRatio);
  return weighted > 0 && pricing.modelRatio > 0 && pricing.groupRatio > 0 ? Math.max(1, cost) : cost;
}

/**
 * (PreConsumedQuota + prompt × max(1, cache write ratio) + max_tokens × completion ratio) × model ratio ×
 * group ratio. The prompt is priced as if all of it were written to the cache when that is dearer than fresh
 * input (a cache read is never dearer than that), so with max_tokens set this is the worst case and the settled
 * cost never exceeds it.
 */
export function computeReservation(
  pricing: Pricing,
  preConsumedQuota: number,
  promptTokens: number,
  maxTokens: number,
): number {
  const promptPrice = Math.max(1, pricing.cacheWriteRatio, pricing.cacheReadRatio);
  const tokens =
    Math.max(0, preConsumedQuota) + promptTokens * promptPrice + maxTokens * pricing.completionRatio;
  return ceilQuota(tokens * pricing.modelRatio * pricing.groupRatio);
}

/**
 * Images are priced per picture: the model ratio is dollars per standard image ÷ 0.002, i.e. ratio × 1000
 * quota each, times the size and quality multiplier.
 */
export function computeImageCost(pricing: Pricing, images: number, multiplier: number): number {
  return ceilQuota(pricing.modelRatio * 1000 * multiplier * images * pricing.groupRatio);
}

/**
 * A model priced per call (ModelPrice) costs its price in dollars × quota per dollar × group ratio for each
 * call, whatever its tokens: reserved up front and settled at exactly that.
 */
export function computeCallCost(callPrice: number, quotaPerUnit: number, groupRatio: number): number {
  return ceilQuota(callPrice * quotaPerUnit * groupRatio);
}
