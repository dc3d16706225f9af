import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema';
import { rebuildAllRollups } from '../../rollups/rollup-rebuild';

const counters = [
  'request_count',
  'error_count',
  'quota',
  'prompt_tokens',
  'completion_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'reasoning_tokens',
  'latency_ms_sum',
  ...Array.from({ length: 11 }, (_, index) => `latency_bucket_${index}`),
  'ttft_count',
  'ttft_ms_sum',
  ...Array.from({ length: 11 }, (_, index) => `ttft_bucket_${index}`),
];

/**
 * Hourly and daily usage rollups (rollups/): one row per bucket, user, key name, model and channel, keyed by
 * those five so a settlement batch adds to a row with one upsert. Filled from the logs already there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['usage_rollups_hourly', 'usage_rollups_daily']) {
    let create = db.schema
      .createTable(table)
      .addColumn('bucket_start', 'bigint', (column) => column.notNull())
      .addColumn('user_id', 'integer', (column) => column.notNull())
      .addColumn('token_name', 'varchar(64)', (column) => column.notNull().defaultTo(sql`''`))
      .addColumn('model_name', 'varchar(255)', (column) => column.notNull().defaultTo(sql`''`))
      .addColumn('channel_id', 'integer', (column) => column.notNull());
    for (const counter of counters) {
      create = create.addColumn(counter, 'bigint', (column) => column.notNull().defaultTo(0));
    }
    await create
      .addPrimaryKeyConstraint(`${table}_key`, [
        'bucket_start',
        'user_id',
        'token_name',
        'model_name',
        'channel_id',
      ] as never)
      .execute();
    await db.schema
      .createIndex(`${table}_user_bucket_index`)
      .on(table)
      .columns(['user_id', 'bucket_start'])
      .execute();
  }
  await rebuildAllRollups(db as Kysely<Database>);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('usage_rollups_daily').execute();
  await db.schema.dropTable('usage_rollups_hourly').execute();
}
