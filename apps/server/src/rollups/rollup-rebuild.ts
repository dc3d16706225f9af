import { LogType } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { ROLLUP_TABLES, bucketStartOf, nextBucketStart } from './rollup-buckets';
import { COUNTER_COLUMNS, MEDIA_TOKEN_COLUMNS, RollupAccumulator, upsertRollupRows } from './usage-rollups';

const LOGS_PER_READ = 5000;

export interface RebuiltRange {
  /** whole server-local days: a rebuild never leaves a day half counted */
  start: number;
  end: number;
  logs: number;
}

/**
 * Recomputes both rollup tables from the logs for the days touching [start, end) (epoch seconds): their
 * rollup rows are deleted and summed again from the consumption and error logs, in one transaction (or the
 * caller's). Used by the migration that created the tables and after logs were changed by hand; a range
 * that includes the present should be rebuilt while no requests settle, or the batches committing meanwhile
 * may be counted twice or not at all.
 */
export async function rebuildRollups(
  db: Kysely<Database>,
  start: number,
  end: number,
): Promise<RebuiltRange> {
  const from = bucketStartOf('day', start);
  const to =
    end > start ? nextBucketStart('day', bucketStartOf('day', end - 1)) : nextBucketStart('day', from);
  // Time to first token and the media tokens are read when the logs record them, and media counters written
  // when the rollups have them: a migration that rebuilds runs before the later ones that add those columns.
  const tables = await db.introspection.getTables();
  const columnsOf = (name: string) =>
    new Set((tables.find((table) => table.name === name)?.columns ?? []).map((column) => column.name));
  const logColumns = columnsOf('logs');
  const rollupColumns = columnsOf(ROLLUP_TABLES.day);
  const hasFirstToken = logColumns.has('first_token_ms');
  const hasMedia = logColumns.has(MEDIA_TOKEN_COLUMNS[0]) && rollupColumns.has(MEDIA_TOKEN_COLUMNS[0]);
  const counters = hasMedia
    ? COUNTER_COLUMNS
    : COUNTER_COLUMNS.filter((column) => !(MEDIA_TOKEN_COLUMNS as readonly string[]).includes(column));
  const rebuild = async (trx: Kysely<Database>) => {
    for (const table of Object.values(ROLLUP_TABLES)) {
      await trx.deleteFrom(table).where('bucket_start', '>=', from).where('bucket_start', '<', to).execute();
    }
    let lastId = 0;
    let count = 0;
    for (;;) {
      const logs = await trx
        .selectFrom('logs')
        .select([
          'id',
          'type',
          'created_at',
          'user_id',
          'token_name',
          'model_name',
          'channel_id',
          'quota',
          'prompt_tokens',
          'completion_tokens',
          'cache_read_tokens',
          'cache_write_tokens',
          'reasoning_tokens',
          'elapsed_time',
          ...(hasFirstToken ? (['first_token_ms'] as never[]) : []),
          ...(hasMedia ? (MEDIA_TOKEN_COLUMNS as unknown as never[]) : []),
        ])
        .where('id', '>', lastId)
        .where('created_at', '>=', from)
        .where('created_at', '<', to)
        .where('type', 'in', [LogType.consume, LogType.error])
        .orderBy('id')
        .limit(LOGS_PER_READ)
        .execute();
      if (logs.length === 0) break;
      for (const granularity of ['hour', 'day'] as const) {
        const accumulator = new RollupAccumulator(granularity);
        for (const log of logs) accumulator.add(log);
        await upsertRollupRows(trx, accumulator, counters);
      }
      lastId = logs[logs.length - 1].id;
      count += logs.length;
      if (logs.length < LOGS_PER_READ) break;
    }
    return { start: from, end: to, logs: count };
  };
  return db.isTransaction ? rebuild(db) : db.transaction().execute(rebuild);
}

/** Rebuilds the rollups of every day that has logs. */
export async function rebuildAllRollups(db: Kysely<Database>): Promise<RebuiltRange | null> {
  const span = await db
    .selectFrom('logs')
    .select((eb) => [eb.fn.min('created_at').as('first'), eb.fn.max('created_at').as('last')])
    .where('type', 'in', [LogType.consume, LogType.error])
    .executeTakeFirst();
  if (span?.first === null || span?.first === undefined || span.last === null) return null;
  return rebuildRollups(db, Number(span.first), Number(span.last) + 1);
}
