import { z } from 'zod';
import { queryTimestamp } from './query-schemas';

export const DASHBOARD_GRANULARITIES = ['hour', 'day'] as const;
export type DashboardGranularity = (typeof DASHBOARD_GRANULARITIES)[number];

/** The longest range each granularity answers: 31 days of hours (744 points), about a year of days. */
export const DASHBOARD_MAX_DAYS: Readonly<Record<DashboardGranularity, number>> = { hour: 31, day: 366 };
/** Without start and end: the last 24 hours by the hour, the last 30 days by the day. */
export const DASHBOARD_DEFAULT_DAYS: Readonly<Record<DashboardGranularity, number>> = { hour: 1, day: 30 };
/** How many models, keys and channels the top lists hold. */
export const DASHBOARD_TOP_COUNT = 10;

const DAY_SECONDS = 86_400;

/**
 * GET /api/dashboard: start and end in epoch seconds (end defaults to now, start to the granularity's default
 * range before end); scope `all` (everyone's usage) is for admins.
 */
export const dashboardQuerySchema = z
  .object({
    start: queryTimestamp('start'),
    end: queryTimestamp('end'),
    granularity: z
      .enum(DASHBOARD_GRANULARITIES, { error: 'The granularity must be hour or day' })
      .optional()
      .transform((value) => value ?? 'hour'),
    scope: z
      .enum(['self', 'all'], { error: 'The scope must be self or all' })
      .optional()
      .transform((value) => value ?? 'self'),
  })
  .transform((query, context) => {
    const end = query.end ?? Math.floor(Date.now() / 1000);
    const start = query.start ?? end - DASHBOARD_DEFAULT_DAYS[query.granularity] * DAY_SECONDS;
    if (start >= end) {
      context.addIssue({ code: 'custom', message: 'start must be before end' });
      return z.NEVER;
    }
    const maxDays = DASHBOARD_MAX_DAYS[query.granularity];
    if (end - start > maxDays * DAY_SECONDS) {
      context.addIssue({
        code: 'custom',
        message:
          query.granularity === 'hour'
            ? `A range by the hour can span at most ${maxDays} days: choose granularity=day or a shorter range`
            : `A range by the day can span at most ${maxDays} days`,
      });
      return z.NEVER;
    }
    return { ...query, start, end };
  });
export type DashboardQuery = z.infer<typeof dashboardQuerySchema>;

/** What every part of the dashboard counts. Quota in quota units; latencies in milliseconds. */
export interface DashboardUsage {
  requests: number;
  /** requests that failed after their quota was reserved (refunded) */
  errors: number;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens: number;
  /** audio and image tokens: parts of prompt_tokens and completion_tokens */
  audio_input_tokens: number;
  image_input_tokens: number;
  audio_output_tokens: number;
  image_output_tokens: number;
}

/** One bucket of the time series; buckets without usage are answered as zeros. */
export interface DashboardPoint extends DashboardUsage {
  /** epoch seconds: the start of the server-local hour or day */
  bucket_start: number;
}

export interface DashboardTopEntry extends DashboardUsage {
  /** model name, key name or channel name */
  name: string;
  /** keys: the owner's username (scope=all); channels: the channel id */
  username?: string;
  channel_id?: number;
}

/** Per channel, for admins: how often it failed and how fast it answered (from the rollups' histograms). */
export interface DashboardChannelHealth extends DashboardUsage {
  channel_id: number;
  name: string;
  /** errors / requests, 0 to 1 */
  error_rate: number;
  /** over the requests that succeeded; null when none did */
  latency_p50_ms: number | null;
  latency_p95_ms: number | null;
  latency_avg_ms: number | null;
  /** time to the first byte of streamed answers, where it was measured; null when none was */
  first_token_p50_ms: number | null;
  first_token_p95_ms: number | null;
}

export interface DashboardData {
  start: number;
  end: number;
  granularity: DashboardGranularity;
  scope: 'self' | 'all';
  totals: DashboardUsage & {
    latency_p50_ms: number | null;
    latency_p95_ms: number | null;
    first_token_p50_ms: number | null;
    first_token_p95_ms: number | null;
  };
  series: DashboardPoint[];
  top_models: DashboardTopEntry[];
  top_keys: DashboardTopEntry[];
  /** admins only (absent for other users) */
  top_channels?: DashboardTopEntry[];
  channels?: DashboardChannelHealth[];
}
