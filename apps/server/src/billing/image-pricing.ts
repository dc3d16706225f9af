/**
 * Size and quality multipliers of the per-image price (https://openai.com/api/pricing):
 * dall-e-2 $0.016 / $0.018 / $0.020 for 256 / 512 / 1024 px; dall-e-3 $0.04 standard square, $0.08 wide or
 * HD square, $0.12 HD wide. Other image models pay their ratio per image whatever the size.
 */
const sizeMultipliers: Record<string, Record<string, number>> = {
  'dall-e-2': { '256x256': 1, '512x512': 1.125, '1024x1024': 1.25 },
  'dall-e-3': { '1024x1024': 1, '1024x1792': 2, '1792x1024': 2 },
};

const defaultSizes: Record<string, string> = { 'dall-e-2': '1024x1024', 'dall-e-3': '1024x1024' };

/** The multiplier for one image, or null when the model does not offer that size. */
export function findImageMultiplier(
  model: string,
  size: string | undefined,
  quality: string | undefined,
): number | null {
  const sizes = sizeMultipliers[model];
  if (!sizes) return 1;
  const multiplier = sizes[size ?? defaultSizes[model]];
  if (multiplier === undefined) return null;
  if (model === 'dall-e-3' && quality === 'hd') return multiplier === 1 ? 2 : 3;
  return multiplier;
}

export function supportedImageSizes(model: string): string[] {
  return Object.keys(sizeMultipliers[model] ?? {});
}

/**
 * gpt-image-1 bills output tokens by size and quality
 * (https://platform.openai.com/docs/guides/image-generation#cost-and-latency); the reservation takes the
 * worst case of the request, and the settlement the usage the answer reports.
 */
export function estimateImageOutputTokens(size: string | undefined, quality: string | undefined): number {
  const isSquare = size === undefined || size === 'auto' || size === '1024x1024';
  const byQuality: Record<string, [number, number]> = {
    low: [272, 408],
    medium: [1056, 1584],
    high: [4160, 6240],
  };
  const [square, wide] = byQuality[quality ?? 'high'] ?? byQuality.high;
  return isSquare ? square : wide;
}
