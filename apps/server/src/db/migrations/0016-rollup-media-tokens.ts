import { sql, type Kysely } from 'kysely';
import { LogType } from '@gatehouse/shared';
import type { Database } from '../schema';
import { ROLLUP_TABLES, bucketStartOf, type RollupGranularity } from '../../rollups/rollup-buckets';

const columns = [
  'audio_input_tokens',
  'image_input_tokens',
  'audio_output_tokens',
  'image_output_tokens',
] as const;
type MediaColumn = (typeof columns)[number];

const LOGS_PER_READ = 5000;

interface RollupKey {
  bucket_start: number;
  user_id: number;
  token_name: string;
  model_name: string;
  channel_id: number;
}

/**
 * The usage rollups count audio and image tokens (logged since 0014) like the other token kinds. The counts
 * of the logs already there are added to their rollup rows: only the new columns are written (every other
 * counter stays as it was, also for days whose logs were since cleared), read a batch of logs at a time and
 * only from the logs that have media tokens. One column per statement: SQLite adds no more at a time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of Object.values(ROLLUP_TABLES)) {
    for (const column of columns) {
      await db.schema
        .alterTable(table)
        .addColumn(column, 'bigint', (builder) => builder.notNull().defaultTo(0))
        .execute();
    }
  }
  const typed = db as Kysely<Database>;
  let lastId = 0;
  for (;;) {
    const logs = await typed
      .selectFrom('logs')
      .select(['id', 'created_at', 'user_id', 'token_name', 'model_name', 'channel_id', ...columns])
      .where('id', '>', lastId)
      .where('type', 'in', [LogType.consume, LogType.error])
      .where((eb) => eb.or(columns.map((column) => eb(column, '>', 0))))
      .orderBy('id')
      .limit(LOGS_PER_READ)
      .execute();
    if (logs.length === 0) break;
    for (const granularity of ['hour', 'day'] as RollupGranularity[]) {
      const sums = new Map<string, { key: RollupKey; counts: Record<MediaColumn, number> }>();
      for (const log of logs) {
        const key: RollupKey = {
          bucket_start: bucketStartOf(granularity, Number(log.created_at)),
          user_id: Number(log.user_id),
          token_name: log.token_name,
          model_name: log.model_name,
          channel_id: Number(log.channel_id),
        };
        const id = JSON.stringify(key);
        let entry = sums.get(id);
        if (!entry) {
          entry = {
            key,
            counts: {
              audio_input_tokens: 0,
              image_input_tokens: 0,
              audio_output_tokens: 0,
              image_output_tokens: 0,
            },
          };
          sums.set(id, entry);
        }
        for (const column of columns) entry.counts[column] += Number(log[column]);
      }
      const table = ROLLUP_TABLES[granularity];
      for (const { key, counts } of sums.values()) {
        await typed
          .updateTable(table)
          .set(
            Object.fromEntries(
              columns.map((column) => [column, sql`${sql.ref(column)} + ${counts[column]}`]),
            ) as never,
          )
          .where('bucket_start', '=', key.bucket_start)
          .where('user_id', '=', key.user_id)
          .where('token_name', '=', key.token_name)
          .where('model_name', '=', key.model_name)
          .where('channel_id', '=', key.channel_id)
          .execute();
      }
    }
    lastId = logs[logs.length - 1].id;
    if (logs.length < LOGS_PER_READ) break;
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of Object.values(ROLLUP_TABLES)) {
    for (const column of [...columns].reverse()) {
      await db.schema.alterTable(table).dropColumn(column).execute();
    }
  }
}
