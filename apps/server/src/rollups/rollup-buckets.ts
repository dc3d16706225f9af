/** The two rollup tables and the span of their buckets, on the server's clock (like budgets' days). */
export const ROLLUP_TABLES = {
  hour: 'usage_rollups_hourly',
  day: 'usage_rollups_daily',
} as const;

export type RollupGranularity = keyof typeof ROLLUP_TABLES;
export type RollupTable = (typeof ROLLUP_TABLES)[RollupGranularity];

/** The start (epoch seconds) of the server-local hour or day holding `seconds`; DST and half-hour zones included. */
export function bucketStartOf(granularity: RollupGranularity, seconds: number): number {
  const date = new Date(seconds * 1000);
  if (granularity === 'hour') date.setMinutes(0, 0, 0);
  else date.setHours(0, 0, 0, 0);
  return Math.floor(date.getTime() / 1000);
}

/** The start of the bucket after the one starting at `start` (days are 23 to 25 hours around DST). */
export function nextBucketStart(granularity: RollupGranularity, start: number): number {
  const date = new Date(start * 1000);
  if (granularity === 'hour') date.setHours(date.getHours() + 1);
  else date.setDate(date.getDate() + 1);
  return Math.floor(date.getTime() / 1000);
}
