import {
  DASHBOARD_TOP_COUNT,
  type DashboardChannelHealth,
  type DashboardData,
  type DashboardPoint,
  type DashboardQuery,
  type DashboardTopEntry,
  type DashboardUsage,
} from '@gatehouse/shared';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { LATENCY_BUCKET_COLUMNS, TTFT_BUCKET_COLUMNS, latencyQuantile } from './latency-histogram';
import { ROLLUP_TABLES, bucketStartOf, nextBucketStart } from './rollup-buckets';
import { COUNTER_COLUMNS, type CounterColumn } from './usage-rollups';

type Sums = Record<CounterColumn, number>;

/** Whose usage: one user's (their own keys) or everyone's. */
export type DashboardViewer = { userId: number; isAdmin: boolean };

function sumsOf(row: Record<string, unknown>): Sums {
  // PostgreSQL and MySQL answer sums of bigints as text; no rows gives null.
  return Object.fromEntries(COUNTER_COLUMNS.map((column) => [column, Number(row[column] ?? 0)])) as Sums;
}

function usageOf(sums: Sums): DashboardUsage {
  return {
    requests: sums.request_count,
    errors: sums.error_count,
    quota: sums.quota,
    prompt_tokens: sums.prompt_tokens,
    completion_tokens: sums.completion_tokens,
    cache_read_tokens: sums.cache_read_tokens,
    cache_write_tokens: sums.cache_write_tokens,
    reasoning_tokens: sums.reasoning_tokens,
    audio_input_tokens: sums.audio_input_tokens,
    image_input_tokens: sums.image_input_tokens,
    audio_output_tokens: sums.audio_output_tokens,
    image_output_tokens: sums.image_output_tokens,
  };
}

const histogramOf = (sums: Sums) => LATENCY_BUCKET_COLUMNS.map((column) => sums[column]);

function latencyOf(sums: Sums) {
  const histogram = histogramOf(sums);
  const firstTokens = TTFT_BUCKET_COLUMNS.map((column) => sums[column]);
  const succeeded = sums.request_count - sums.error_count;
  return {
    latency_p50_ms: latencyQuantile(histogram, 0.5),
    latency_p95_ms: latencyQuantile(histogram, 0.95),
    latency_avg_ms: succeeded > 0 ? Math.round(sums.latency_ms_sum / succeeded) : null,
    first_token_p50_ms: latencyQuantile(firstTokens, 0.5),
    first_token_p95_ms: latencyQuantile(firstTokens, 0.95),
  };
}

const byUsage = (a: DashboardUsage, b: DashboardUsage) => b.quota - a.quota || b.requests - a.requests;

/**
 * The dashboard from the rollups only (never the logs): the series, the totals, the top models and keys, and
 * for admins the channels with their error rates and latency percentiles. `scope=all` must be checked by the
 * caller; here it reads everyone's rows, `self` only the viewer's.
 */
export async function readDashboard(
  db: Kysely<Database>,
  viewer: DashboardViewer,
  query: DashboardQuery,
): Promise<DashboardData> {
  const table = ROLLUP_TABLES[query.granularity];
  const first = bucketStartOf(query.granularity, query.start);
  const grouped = <Group extends 'bucket_start' | 'model_name' | 'channel_id' | 'user_id' | 'token_name'>(
    groups: Group[],
  ) => {
    let select = db
      .selectFrom(table)
      .select(groups)
      .select(
        COUNTER_COLUMNS.map((column) => sql<string | number | null>`sum(${sql.ref(column)})`.as(column)),
      )
      .where('bucket_start', '>=', first)
      .where('bucket_start', '<', query.end);
    if (query.scope === 'self') select = select.where('user_id', '=', viewer.userId);
    return groups.length > 0 ? select.groupBy(groups).execute() : select.execute();
  };

  const [seriesRows, modelRows, keyRows, channelRows] = await Promise.all([
    grouped(['bucket_start']),
    grouped(['model_name']),
    grouped(['user_id', 'token_name']),
    grouped(['channel_id']),
  ]);

  const byBucket = new Map(seriesRows.map((row) => [Number(row.bucket_start), usageOf(sumsOf(row))]));
  const series: DashboardPoint[] = [];
  for (let bucket = first; bucket < query.end; bucket = nextBucketStart(query.granularity, bucket)) {
    series.push({ bucket_start: bucket, ...(byBucket.get(bucket) ?? usageOf(sumsOf({}))) });
  }

  const allSums = sumsOf({});
  const channelSums = channelRows.map((row) => ({ channelId: Number(row.channel_id), sums: sumsOf(row) }));
  for (const { sums } of channelSums) {
    for (const column of COUNTER_COLUMNS) allSums[column] += sums[column];
  }
  const { latency_p50_ms, latency_p95_ms, first_token_p50_ms, first_token_p95_ms } = latencyOf(allSums);

  const topModels = modelRows
    .map((row) => ({ name: row.model_name, ...usageOf(sumsOf(row)) }))
    .sort(byUsage)
    .slice(0, DASHBOARD_TOP_COUNT);

  const keys = keyRows
    .map((row) => ({ userId: Number(row.user_id), name: row.token_name, ...usageOf(sumsOf(row)) }))
    .sort(byUsage)
    .slice(0, DASHBOARD_TOP_COUNT);
  const usernames = await namesOf(
    db,
    'users',
    keys.map((key) => key.userId),
  );
  const topKeys: DashboardTopEntry[] = keys.map(({ userId, ...key }) =>
    query.scope === 'all' ? { ...key, username: usernames.get(userId) ?? `#${userId}` } : key,
  );

  const data: DashboardData = {
    start: query.start,
    end: query.end,
    granularity: query.granularity,
    scope: query.scope,
    totals: { ...usageOf(allSums), latency_p50_ms, latency_p95_ms, first_token_p50_ms, first_token_p95_ms },
    series,
    top_models: topModels,
    top_keys: topKeys,
  };
  if (!viewer.isAdmin) return data;

  const channelNames = await namesOf(
    db,
    'channels',
    channelSums.map(({ channelId }) => channelId),
  );
  const channels: DashboardChannelHealth[] = channelSums
    .map(({ channelId, sums }) => ({
      channel_id: channelId,
      name: channelNames.get(channelId) ?? `#${channelId}`,
      ...usageOf(sums),
      error_rate: sums.request_count > 0 ? sums.error_count / sums.request_count : 0,
      ...latencyOf(sums),
    }))
    .sort(byUsage);
  data.top_channels = channels.slice(0, DASHBOARD_TOP_COUNT).map((channel) => ({
    name: channel.name,
    channel_id: channel.channel_id,
    ...usageOf(channelSums.find(({ channelId }) => channelId === channel.channel_id)!.sums),
  }));
  data.channels = channels;
  return data;
}

async function namesOf(db: Kysely<Database>, table: 'users' | 'channels', ids: number[]) {
  const unique = [...new Set(ids)].filter((id) => id > 0);
  if (unique.length === 0) return new Map<number, string>();
  const rows =
    table === 'users'
      ? await db.selectFrom('users').select(['id', 'username as name']).where('id', 'in', unique).execute()
      : await db.selectFrom('channels').select(['id', 'name']).where('id', 'in', unique).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}
