import type { TokenUsage } from '../providers/provider-types';
import type { Pricing } from './pricing';

/** Ratios are decimals (0.075 × 1000 = 75.00000000000001): round away float noise before ceil. */
function ceilQuota(value: number): number {
  return value <= 0 ? 0 : Math.ceil(Math.round(value * 1e6) / 1e6);
}

/** The text prompt tokens that were neither read from nor written to the vendor's cache. */
export function freshPromptTokens(usage: TokenUsage): number {
  return Math.max(
    0,
    usage.promptTokens -
      (usage.cacheReadTokens ?? 0) -
      (usage.cacheWriteTokens ?? 0) -
      (usage.audioInputTokens ?? 0) -
      (usage.imageInputTokens ?? 0),
  );
}

/** The text completion tokens (reasoning included): the completion less its audio and image tokens. */
export function textCompletionTokens(usage: TokenUsage): number {
  return Math.max(
    0,
    usage.completionTokens - (usage.audioOutputTokens ?? 0) - (usage.imageOutputTokens ?? 0),
  );
}

/**
 * ceil((fresh text prompt + cache read × cache read ratio + cache write × cache write ratio + audio input ×
 * audio input ratio + image input × image input ratio + (text completion + audio output × audio output ratio +
 * image output × image output ratio) × completion ratio) × model ratio × group ratio), at least 1 when tokens
 * were used at a non-zero price. Reasoning tokens are part of the text completion and priced as such. The
 * consumption log records every term, so this is the arithmetic a user can redo by hand.
 */
export function computeTokenCost(pricing: Pricing, usage: TokenUsage): number {
  const completion =
    textCompletionTokens(usage) +
    (usage.audioOutputTokens ?? 0) * pricing.audioOutputRatio +
    (usage.imageOutputTokens ?? 0) * pricing.imageOutputRatio;
  const weighted =
    freshPromptTokens(usage) +
    (usage.cacheReadTokens ?? 0) * pricing.cacheReadRatio +
    (usage.cacheWriteTokens ?? 0) * pricing.cacheWriteRatio +
    (usage.audioInputTokens ?? 0) * pricing.audioInputRatio +
    (usage.imageInputTokens ?? 0) * pricing.imageInputRatio +
    completion * pricing.completionRatio;
  const cost = ceilQuota(weighted * pricing.modelRatio * pricing.groupRatio);
  return weighted > 0 && pricing.modelRatio > 0 && pricing.groupRatio > 0 ? Math.max(1, cost) : cost;
}

/**
 * (PreConsumedQuota + prompt × max(1, every prompt ratio) + max_tokens × completion ratio × max(1, audio and
 * image output ratios)) × model ratio × group ratio. Every prompt token is priced at the dearest kind it could
 * be (fresh, cache read or write, audio, image) and every completion token likewise, so with max_tokens set
 * this is the worst case and the settled cost never exceeds it.
 */
export function computeReservation(
  pricing: Pricing,
  preConsumedQuota: number,
  promptTokens: number,
  maxTokens: number,
): number {
  const promptPrice = Math.max(
    1,
    pricing.cacheWriteRatio,
    pricing.cacheReadRatio,
    pricing.audioInputRatio,
    pricing.imageInputRatio,
  );
  const completionPrice = Math.max(1, pricing.audioOutputRatio, pricing.imageOutputRatio);
  const tokens =
    Math.max(0, preConsumedQuota) +
    promptTokens * promptPrice +
    maxTokens * pricing.completionRatio * completionPrice;
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
