import type { FastifyInstance } from 'fastify';
import { nowSeconds } from '@gatehouse/shared';
import { sql } from 'kysely';
import type { AppContext } from '../context';
import { createGuards, currentUser } from '../http/auth';
import { ok } from '../http/envelope';
import { ROLLUP_TABLES, bucketStartOf } from '../rollups/rollup-buckets';

const DASHBOARD_DAYS = 7;

/** One row of one-api's dashboard (its `LogStatistic`): one model on one day, `day` as YYYY-MM-DD. */
export interface DashboardRow {
  day: string;
  model_name: string;
  request_count: number;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
}

/** The server's calendar day of an epoch second as YYYY-MM-DD (a daily rollup bucket starts at local midnight). */
function localDay(seconds: number): string {
  const date = new Date(seconds * 1000);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * The signed-in user's consumption over the last 7 days (today included), per day and model, read from the
 * daily usage rollups (rollups/): one row per day × key × model × channel, so the cost does not grow with the
 * logs. Days are the server's calendar days, as one-api's are. `request_count` counts the requests that were
 * charged: the rollups' error rows (requests refunded whole) are left out, as one-api counts consumption rows.
 * Their quota is 0; the rare error row that keeps token counts (an answer withheld because its charge could
 * not be committed) adds its tokens, which the rollups do not tell apart.
 */
export async function listDashboardRows(
  context: AppContext,
  userId: number,
  now = nowSeconds(),
): Promise<DashboardRow[]> {
  const start = new Date(bucketStartOf('day', now) * 1000);
  start.setDate(start.getDate() - (DASHBOARD_DAYS - 1));
  const rows = await context.db
    .selectFrom(ROLLUP_TABLES.day)
    .select([
      'bucket_start',
      'model_name',
      sql<number | string | null>`sum(request_count) - sum(error_count)`.as('request_count'),
      sql<number | string | null>`sum(quota)`.as('quota'),
      sql<number | string | null>`sum(prompt_tokens)`.as('prompt_tokens'),
      sql<number | string | null>`sum(completion_tokens)`.as('completion_tokens'),
    ])
    .where('user_id', '=', userId)
    .where('bucket_start', '>=', Math.floor(start.getTime() / 1000))
    .where('bucket_start', '<=', now)
    .groupBy(['bucket_start', 'model_name'])
    .having(sql<boolean>`sum(request_count) - sum(error_count) > 0`)
    .execute();
  // PostgreSQL and MySQL answer bigint sums as text.
  return rows
    .map((row) => ({
      day: localDay(Number(row.bucket_start)),
      model_name: row.model_name,
      request_count: Number(row.request_count ?? 0),
      quota: Number(row.quota ?? 0),
      prompt_tokens: Number(row.prompt_tokens ?? 0),
      completion_tokens: Number(row.completion_tokens ?? 0),
    }))
    .sort((a, b) => a.day.localeCompare(b.day) || a.model_name.localeCompare(b.model_name));
}

/** GET /api/user/dashboard — one-api's dashboard data, answered in its row shape. */
export function registerUserDashboardRoutes(app: FastifyInstance, context: AppContext): void {
  const guards = createGuards(context);
  app.get('/api/user/dashboard', { preHandler: guards.user }, async (request) =>
    ok(await listDashboardRows(context, currentUser(request).id)),
  );
}
