/**
 * The fixed latency buckets of the usage rollups: bucket i counts requests that took at most
 * LATENCY_BOUNDS_MS[i] milliseconds (and more than the bound before it); the last bucket counts the rest.
 * Fixed bounds make buckets of any rows add up, so percentiles can be read from summed rollups.
 */
export const LATENCY_BOUNDS_MS = [100, 250, 500, 1000, 2500, 5000, 10_000, 20_000, 40_000, 80_000] as const;

export const LATENCY_BUCKET_COLUMNS = [
  'latency_bucket_0',
  'latency_bucket_1',
  'latency_bucket_2',
  'latency_bucket_3',
  'latency_bucket_4',
  'latency_bucket_5',
  'latency_bucket_6',
  'latency_bucket_7',
  'latency_bucket_8',
  'latency_bucket_9',
  'latency_bucket_10',
] as const;

export type LatencyBucketColumn = (typeof LATENCY_BUCKET_COLUMNS)[number];

/** Time to first token, in the same buckets. */
export const TTFT_BUCKET_COLUMNS = [
  'ttft_bucket_0',
  'ttft_bucket_1',
  'ttft_bucket_2',
  'ttft_bucket_3',
  'ttft_bucket_4',
  'ttft_bucket_5',
  'ttft_bucket_6',
  'ttft_bucket_7',
  'ttft_bucket_8',
  'ttft_bucket_9',
  'ttft_bucket_10',
] as const;

export function latencyBucketOf(milliseconds: number): number {
  const index = LATENCY_BOUNDS_MS.findIndex((bound) => milliseconds <= bound);
  return index === -1 ? LATENCY_BOUNDS_MS.length : index;
}

/**
 * The q-quantile (0 < q < 1) of the latencies counted in `counts`, interpolated linearly inside its bucket;
 * the open last bucket answers its lower bound. Null when nothing was counted.
 */
export function latencyQuantile(counts: readonly number[], q: number): number | null {
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const rank = q * total;
  let below = 0;
  for (let index = 0; index < counts.length; index += 1) {
    const count = counts[index];
    if (count > 0 && below + count >= rank) {
      const lower = index === 0 ? 0 : LATENCY_BOUNDS_MS[index - 1];
      if (index >= LATENCY_BOUNDS_MS.length) return lower;
      const upper = LATENCY_BOUNDS_MS[index];
      return Math.round(lower + ((rank - below) / count) * (upper - lower));
    }
    below += count;
  }
  return LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 1];
}
