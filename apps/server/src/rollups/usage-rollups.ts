import { LogType } from '@gatehouse/shared';
import { MysqlAdapter, sql, type Kysely } from 'kysely';
import type { Database, UsageRollupsTable } from '../db/schema';
import { LATENCY_BUCKET_COLUMNS, TTFT_BUCKET_COLUMNS, latencyBucketOf } from './latency-histogram';
import { ROLLUP_TABLES, bucketStartOf, type RollupGranularity, type RollupTable } from './rollup-buckets';
import { PrecompiledRows } from '../billing/precompiled-rows';
import type { RunStatement } from '../db/direct-statements';

/** The log fields a rollup reads: consumption rows count as requests, error rows as failed requests. */
export interface RollupSource {
  type: number;
  created_at: number;
  user_id?: number;
  token_name?: string;
  model_name?: string;
  channel_id?: number;
  quota?: number;
  prompt_tokens?: number;
  completion_tokens?: number;
  cache_read_tokens?: number;
  cache_write_tokens?: number;
  reasoning_tokens?: number;
  audio_input_tokens?: number;
  image_input_tokens?: number;
  audio_output_tokens?: number;
  image_output_tokens?: number;
  elapsed_time?: number;
  /** milliseconds to the first byte of a stream; 0 or absent when not measured */
  first_token_ms?: number;
}

const KEY_COLUMNS = ['bucket_start', 'user_id', 'token_name', 'model_name', 'channel_id'] as const;

/** Audio and image tokens, parts of the prompt and completion counts (added by migration 0016). */
export const MEDIA_TOKEN_COLUMNS = [
  'audio_input_tokens',
  'image_input_tokens',
  'audio_output_tokens',
  'image_output_tokens',
] as const;

export const COUNTER_COLUMNS = [
  'request_count',
  'error_count',
  'quota',
  'prompt_tokens',
  'completion_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'reasoning_tokens',
  ...MEDIA_TOKEN_COLUMNS,
  'latency_ms_sum',
  ...LATENCY_BUCKET_COLUMNS,
  'ttft_count',
  'ttft_ms_sum',
  ...TTFT_BUCKET_COLUMNS,
] as const;

export type CounterColumn = (typeof COUNTER_COLUMNS)[number];

/** Rows per INSERT: 39 columns each (7,800 parameters) stays below every driver's parameter limit. */
const ROWS_PER_UPSERT = 200;

/** Is this log row counted by the rollups? Top-ups, management and system rows are not usage. */
export function isRollupType(type: number): boolean {
  return type === LogType.consume || type === LogType.error;
}

/** A rollup row of zeros: copied whole for each new row (see emptyRow). */
const ZERO_ROW = Object.fromEntries([
  ...KEY_COLUMNS.map((column) => [column, column === 'token_name' || column === 'model_name' ? '' : 0]),
  ...COUNTER_COLUMNS.map((column) => [column, 0]),
]) as unknown as UsageRollupsTable;

function emptyRow(
  bucketStart: number,
  userId: number,
  tokenName: string,
  modelName: string,
  channelId: number,
): UsageRollupsTable {
  // A copy of one template keeps V8's fast object layout; a row built by adding its 40-odd columns one by one
  // (or by spreading two objects) became a dictionary: 25–130 µs a row, measured, against 0.2 µs.
  const row = { ...ZERO_ROW };
  row.bucket_start = bucketStart;
  row.user_id = userId;
  row.token_name = tokenName;
  row.model_name = modelName;
  row.channel_id = channelId;
  return row;
}

/** Sums log rows into one rollup row per (bucket, user, key name, model, channel): the batch's upserts. */
export class RollupAccumulator {
  readonly rows = new Map<string, UsageRollupsTable>();
  /**
   * The row the last log went to: a batch's logs mostly come from the same key, model and channel in the same
   * hour, and for them the row is found without building its id (a string of five parts per log and table).
   */
  private lastRow: UsageRollupsTable | null = null;

  constructor(readonly granularity: RollupGranularity) {}

  add(source: RollupSource): void {
    this.addCounts(source.type, source.created_at, source.quota ?? 0, source);
  }

  /**
   * The same for a row whose type, time and quota are given apart from the rest (a settlement's log, whose
   * quota is what was charged): the settlement needs no merged copy of the row.
   */
  addCounts(
    type: number,
    createdAt: number,
    quota: number,
    source: Omit<RollupSource, 'type' | 'created_at' | 'quota'>,
  ): void {
    if (!isRollupType(type)) return;
    const bucketStart = bucketStartOf(this.granularity, Number(createdAt));
    const userId = Number(source.user_id ?? 0);
    const tokenName = source.token_name ?? '';
    const modelName = source.model_name ?? '';
    const channelId = Number(source.channel_id ?? 0);
    let row = this.lastRow;
    if (
      row === null ||
      row.bucket_start !== bucketStart ||
      row.user_id !== userId ||
      row.channel_id !== channelId ||
      row.token_name !== tokenName ||
      row.model_name !== modelName
    ) {
      const id = `${bucketStart}\u0000${userId}\u0000${channelId}\u0000${tokenName}\u0000${modelName}`;
      row = this.rows.get(id) ?? null;
      if (!row) {
        row = emptyRow(bucketStart, userId, tokenName, modelName, channelId);
        this.rows.set(id, row);
      }
      this.lastRow = row;
    }
    row.request_count += 1;
    row.quota += Number(quota);
    row.prompt_tokens += Number(source.prompt_tokens ?? 0);
    row.completion_tokens += Number(source.completion_tokens ?? 0);
    row.cache_read_tokens += Number(source.cache_read_tokens ?? 0);
    row.cache_write_tokens += Number(source.cache_write_tokens ?? 0);
    row.reasoning_tokens += Number(source.reasoning_tokens ?? 0);
    row.audio_input_tokens += Number(source.audio_input_tokens ?? 0);
    row.image_input_tokens += Number(source.image_input_tokens ?? 0);
    row.audio_output_tokens += Number(source.audio_output_tokens ?? 0);
    row.image_output_tokens += Number(source.image_output_tokens ?? 0);
    if (type === LogType.error) {
      row.error_count += 1;
      return;
    }
    const latency = Math.max(0, Number(source.elapsed_time ?? 0));
    row.latency_ms_sum += latency;
    row[LATENCY_BUCKET_COLUMNS[latencyBucketOf(latency)]] += 1;
    const firstToken = Number(source.first_token_ms ?? 0);
    if (firstToken > 0) {
      row.ttft_count += 1;
      row.ttft_ms_sum += firstToken;
      row[TTFT_BUCKET_COLUMNS[latencyBucketOf(firstToken)]] += 1;
    }
  }
}

function buildUpsert(
  db: Kysely<Database>,
  table: RollupTable,
  rows: UsageRollupsTable[],
  counters: readonly CounterColumn[] = COUNTER_COLUMNS,
) {
  const values =
    counters === COUNTER_COLUMNS
      ? rows
      : rows.map(
          (row) =>
            Object.fromEntries(
              [...KEY_COLUMNS, ...counters].map((column) => [column, row[column]]),
            ) as unknown as UsageRollupsTable,
        );
  const insert = db.insertInto(table).values(values);
  if (db.getExecutor().adapter instanceof MysqlAdapter) {
    const added = Object.fromEntries(
      counters.map((column) => [column, sql`${sql.ref(column)} + values(${sql.ref(column)})`]),
    );
    return insert.onDuplicateKeyUpdate(added);
  }
  const added = Object.fromEntries(
    counters.map((column) => [
      column,
      sql`${sql.ref(`${table}.${column}`)} + ${sql.ref(`excluded.${column}`)}`,
    ]),
  );
  return insert.onConflict((conflict) => conflict.columns([...KEY_COLUMNS]).doUpdateSet(added));
}

const ROW_COLUMNS: readonly string[] = [...KEY_COLUMNS, ...COUNTER_COLUMNS];

/**
 * The upsert of every column, compiled once per dialect, table and number of rows: most settlement batches
 * add one rollup row per table, and building this 39-column statement with its 34 counter expressions cost
 * more than the rest of the batch's statements together.
 */
const compiledUpserts = new PrecompiledRows((db, table, rows) =>
  buildUpsert(db, table as RollupTable, rows as unknown as UsageRollupsTable[]),
);

/**
 * Adds the accumulated rows to the table: a new row, or its counters added to the existing one. `counters`
 * narrows the columns written, for a rebuild run by a migration before later ones added the rest.
 */
export async function upsertRollupRows(
  db: Kysely<Database>,
  accumulator: RollupAccumulator,
  counters: readonly CounterColumn[] = COUNTER_COLUMNS,
  run?: RunStatement,
): Promise<void> {
  const table = ROLLUP_TABLES[accumulator.granularity];
  if (counters === COUNTER_COLUMNS) {
    // Sized at once: grown push by push, the 39 values of a single row took two copies.
    const values: unknown[] = new Array(accumulator.rows.size * ROW_COLUMNS.length);
    let next = 0;
    for (const row of accumulator.rows.values()) {
      for (const column of ROW_COLUMNS) values[next++] = row[column as CounterColumn];
    }
    await compiledUpserts.execute(db, table, ROW_COLUMNS, values, accumulator.rows.size, run);
    return;
  }
  const rows = [...accumulator.rows.values()];
  for (let start = 0; start < rows.length; start += ROWS_PER_UPSERT) {
    await buildUpsert(db, table, rows.slice(start, start + ROWS_PER_UPSERT), counters).execute();
  }
}

/** One accumulator per rollup table (hour, day), for addCounts / add and then upsertRollups. */
export function createRollupAccumulators(): RollupAccumulator[] {
  return [new RollupAccumulator('hour'), new RollupAccumulator('day')];
}

/** Writes what the accumulators summed, in the caller's transaction (`run` runs its statements). */
export async function upsertRollups(
  db: Kysely<Database>,
  accumulators: readonly RollupAccumulator[],
  run?: RunStatement,
) {
  for (const accumulator of accumulators) {
    if (accumulator.rows.size > 0) await upsertRollupRows(db, accumulator, COUNTER_COLUMNS, run);
  }
}

/**
 * The rollups' share of a settlement batch: the batch's consumption and error log rows summed in memory, then
 * one upsert per (bucket, user, key name, model, channel) into each table — in the caller's transaction, so
 * rollups and logs commit together.
 */
export async function addLogsToRollups(db: Kysely<Database>, logs: readonly RollupSource[]): Promise<void> {
  const accumulators = createRollupAccumulators();
  for (const accumulator of accumulators) for (const log of logs) accumulator.add(log);
  await upsertRollups(db, accumulators);
}
