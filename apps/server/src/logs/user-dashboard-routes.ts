import type { FastifyInstance } from 'fastify';
import { LogType, nowSeconds } from '@gatehouse/shared';
import { sql } from 'kysely';
import type { AppContext } from '../context';
import { createGuards, currentUser } from '../http/auth';
import { ok } from '../http/envelope';

const DAY_SECONDS = 86_400;
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

/** The server's offset from UTC in seconds now: days are the server's calendar days, as one-api's are. */
function timeZoneOffsetSeconds(): number {
  return -new Date().getTimezoneOffset() * 60;
}

/**
 * The signed-in user's consumption over the last 7 days (today included), per day and model. The day bucket is
 * integer arithmetic on `created_at` — the same SQL on SQLite, PostgreSQL and MySQL, whose date functions
 * differ — and the query reads the (user_id, created_at) index.
 */
export async function listDashboardRows(
  context: AppContext,
  userId: number,
  now = nowSeconds(),
): Promise<DashboardRow[]> {
  const offset = timeZoneOffsetSeconds();
  const todayStart = now - ((now + offset) % DAY_SECONDS);
  const start = todayStart - (DASHBOARD_DAYS - 1) * DAY_SECONDS;
  const localTime = sql`(created_at + ${sql.lit(offset)})`;
  const dayBucket = sql<number | string>`${localTime} - ${localTime} % ${sql.lit(DAY_SECONDS)}`;
  const rows = await context.db
    .selectFrom('logs')
    .select([
      dayBucket.as('day_bucket'),
      'model_name',
      sql<number | string>`count(1)`.as('request_count'),
      sql<number | string | null>`sum(quota)`.as('quota'),
      sql<number | string | null>`sum(prompt_tokens)`.as('prompt_tokens'),
      sql<number | string | null>`sum(completion_tokens)`.as('completion_tokens'),
    ])
    .where('user_id', '=', userId)
    .where('created_at', '>=', start)
    .where('created_at', '<', todayStart + DAY_SECONDS)
    .where('type', '=', LogType.consume)
    .groupBy([dayBucket, 'model_name'])
    .execute();
  // PostgreSQL and MySQL answer bigint sums as text.
  return rows
    .map((row) => ({
      day: new Date(Number(row.day_bucket) * 1000).toISOString().slice(0, 10),
      model_name: row.model_name,
      request_count: Number(row.request_count),
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
