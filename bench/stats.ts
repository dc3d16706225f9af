/** The p-th percentile (0–100) of samples, nearest-rank; NaN when there are none. Sorts in place. */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  samples.sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * samples.length);
  return samples[Math.min(samples.length, Math.max(1, rank)) - 1];
}

/** Latency summary in milliseconds. */
export interface LatencySummary {
  p50: number;
  p99: number;
  count: number;
}

export function summarise(samples: number[]): LatencySummary {
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), count: samples.length };
}
