import { MysqlAdapter, SqliteAdapter } from 'kysely';
import { LogType } from '@gatehouse/shared';
import type { Db } from '../db/database';
import type { NewLogRow } from '../db/schema';
import { createRollupAccumulators, upsertRollups } from '../rollups/usage-rollups';
import { PrecompiledRows } from './precompiled-rows';
import type { RunStatement } from '../db/direct-statements';
import type { QuotaHolder } from './quota-reservation';
import {
  addChannelUsage,
  addToTokenBalance,
  addToUserBalance,
  addTokenUsage,
  addUserUsage,
  settleTokenWhole,
  settleUserWhole,
  settleUserWholeReturningQuota,
  takeWholeFromToken,
  takeWholeFromUser,
} from './settlement-statements';

// What one settlement transaction writes, for SettlementLedger (which queues, batches and retries): the
// balances and usage of users, keys and channels, the log rows, and the deleted reservation records.

/** One finished request: what was reserved for it and what it costs. */
export interface Settlement {
  holder: QuotaHolder;
  /** the reservation record this settlement replaces (the request's id); absent when none was written */
  reservationId?: string;
  channelId: number;
  reserved: number;
  cost: number;
  /** the consumption log row; its quota is filled in when settled. Null when LogConsumeEnabled is off */
  log: Omit<NewLogRow, 'quota' | 'created_at' | 'type'> | null;
  createdAt: number;
  /**
   * The client receives nothing of the answer until this commits (a JSON body): when the commit fails, the
   * answer is withheld, so the settlement turns into a full refund (SettlementLedger)
   */
  isWithheld?: boolean;
  /**
   * Set by the ledger on a withheld settlement: its request's wait for the charge, and when its first commit
   * failed (0 before); settled with the commit that carries the charge, or rejected when it is refunded.
   */
  waiter?: { resolve: () => void; reject: (error: unknown) => void; failedAt: number };
}

/** Ids per SELECT when a batch looks for its records (settlement-ledger.ts, after ReleasedMeanwhile). */
export const RECORDS_PER_DELETE = 500;
const ID_COLUMN = ['id'];

/** Some records of a batch were gone (recovery released them): the batch is redone one record at a time. */
export class ReleasedMeanwhile extends Error {}

/** The reservation records a batch replaces. */
export function recordIdsOf(batch: Settlement[]): string[] {
  return batch.flatMap((settlement) =>
    settlement.reservationId !== undefined && settlement.reserved > 0 ? [settlement.reservationId] : [],
  );
}

type Group = readonly [key: number, indexes: readonly number[]];

const ONLY_FIRST: readonly number[] = [0];

/**
 * The batch's indexes grouped by `keyOf` (a user, key or channel id), in ascending order of the id: the lock
 * order. With group commit a batch is often one request: that is one group, with nothing mapped or sorted.
 */
function groupBy(batch: readonly Settlement[], keyOf: (settlement: Settlement) => number): Group[] {
  if (batch.length === 1) return [[keyOf(batch[0]), ONLY_FIRST]];
  const groups = new Map<number, number[]>();
  for (let index = 0; index < batch.length; index += 1) {
    const key = keyOf(batch[index]);
    const group = groups.get(key);
    if (group) group.push(index);
    else groups.set(key, [index]);
  }
  return [...groups].sort((a, b) => a[0] - b[0]);
}

// Sums over a group's indexes: loops, not reduces with a callback made for every group of every batch.

/** Σ charged at `indexes`. */
function sumAt(charged: readonly number[], indexes: readonly number[]): number {
  let sum = 0;
  for (let at = 0; at < indexes.length; at += 1) sum += charged[indexes[at]];
  return sum;
}

/** Σ cost at `indexes`. */
function sumCosts(batch: ReadonlyArray<Pick<Settlement, 'cost'>>, indexes: readonly number[]): number {
  let sum = 0;
  for (let at = 0; at < indexes.length; at += 1) sum += batch[indexes[at]].cost;
  return sum;
}

/** Σ reserved at `indexes`. */
function sumReserved(batch: ReadonlyArray<Pick<Settlement, 'reserved'>>, indexes: readonly number[]): number {
  let sum = 0;
  for (let at = 0; at < indexes.length; at += 1) sum += batch[indexes[at]].reserved;
  return sum;
}

const userOf = (settlement: Settlement) => settlement.holder.userId;
const tokenOf = (settlement: Settlement) => settlement.holder.tokenId;
const channelOf = (settlement: Settlement) => settlement.channelId;

const recordDeletes = new PrecompiledRows((db, _shape, rows) =>
  db.deleteFrom('quota_reservations').where(
    'id',
    'in',
    rows.map((row) => row.id as string),
  ),
);

/** Deletes the batch's reservation records; throws ReleasedMeanwhile when some were gone already. */
export async function deleteReservationRecords(
  trx: Db,
  run: RunStatement,
  batch: Settlement[],
): Promise<void> {
  const ids = recordIdsOf(batch);
  if (ids.length === 0) return;
  const deleted = await recordDeletes.execute(
    trx,
    'quota_reservations',
    ID_COLUMN,
    ids,
    ids.length,
    run,
    true,
  );
  if (deleted !== ids.length) throw new ReleasedMeanwhile();
}

/** What a batch's transaction did: each settlement's charge, and the balances it left where it read them. */
export interface AppliedBatch {
  /** what each settlement was charged, in the batch's order */
  charged: number[];
  /**
   * user id → the row the user's UPDATE answered (`quota`: the balance after the batch), for the users whose
   * balance the database answered (not MySQL). Read it once the transaction committed: on SQLite's write
   * thread the values arrive with the commit.
   */
  userBalances: Map<number, { quota?: unknown }>;
}

/**
 * Charges or refunds each settlement's difference and writes usage and logs; answers what each was charged.
 * In a transaction of `db` (writeTransaction): `trx` builds statements, `run` runs them.
 */
export async function applySettlements(
  db: Db,
  trx: Db,
  run: RunStatement,
  batch: Settlement[],
  failures: NewLogRow[],
): Promise<AppliedBatch> {
  const charged = batch.map((settlement) => settlement.cost);
  const userBalances = new Map<number, { quota?: unknown }>();
  const canReturn = !(trx.getExecutor().adapter instanceof MysqlAdapter);
  // Users, then keys, then channels: the same lock order as the reservation.
  for (const [userId, indexes] of groupBy(batch, userOf)) {
    // Mostly the balance covers the difference: balance and usage in one statement.
    const cost = sumCosts(batch, indexes);
    const difference = cost - sumReserved(batch, indexes);
    if (canReturn) {
      const settled = await run(
        settleUserWholeReturningQuota(db, userId, difference, cost, indexes.length),
        1,
      );
      if (settled.rows.length === 1) {
        userBalances.set(userId, settled.rows[0] as { quota?: unknown });
        continue;
      }
    } else {
      const settled = await run(settleUserWhole(db, userId, difference, cost, indexes.length), 1);
      if (Number(settled.numAffectedRows ?? 0) === 1) continue;
    }
    const shortfall = await settleBalance(db, trx, run, 'users', 'quota', userId, batch, indexes);
    // The part of a cost the balance could not cover was not charged: take it off the latest requests.
    let left = shortfall;
    for (let cursor = indexes.length - 1; cursor >= 0 && left > 0; cursor -= 1) {
      const index = indexes[cursor];
      const extra = Math.max(0, batch[index].cost - batch[index].reserved);
      const cut = Math.min(extra, left);
      charged[index] -= cut;
      left -= cut;
    }
    const used = sumAt(charged, indexes);
    await run(addUserUsage(db, userId, used, indexes.length));
  }
  for (const [tokenId, indexes] of groupBy(batch, tokenOf)) {
    let accessedTime = -Infinity;
    for (const index of indexes) accessedTime = Math.max(accessedTime, batch[index].createdAt);
    const used = sumAt(charged, indexes);
    if (!batch[indexes[0]].holder.isUnlimitedToken) {
      const difference = used - sumReserved(batch, indexes);
      const settled = await run(
        settleTokenWhole(db, tokenId, difference, used, indexes.length, accessedTime),
        1,
      );
      if (Number(settled.numAffectedRows ?? 0) === 1) continue;
      const costs = indexes.map((index) => ({ cost: charged[index], reserved: batch[index].reserved }));
      await settleBalance(
        db,
        trx,
        run,
        'tokens',
        'remain_quota',
        tokenId,
        costs,
        costs.map((_, i) => i),
      );
    }
    await run(addTokenUsage(db, tokenId, used, indexes.length, accessedTime));
  }
  for (const [channelId, indexes] of groupBy(batch, channelOf)) {
    const used = sumAt(charged, indexes);
    await run(addChannelUsage(db, channelId, used, indexes.length));
  }
  // The rows are written straight from each settlement's log (no merged copy of 30-odd columns per row).
  const rollups = createRollupAccumulators();
  for (let index = 0; index < batch.length; index += 1) {
    const log = batch[index].log;
    if (log !== null) {
      for (const accumulator of rollups) {
        accumulator.addCounts(LogType.consume, batch[index].createdAt, charged[index], log);
      }
    }
  }
  for (const failure of failures) for (const accumulator of rollups) accumulator.add(failure);
  await insertConsumeLogs(trx, run, batch, charged);
  await insertLogRows(trx, run, failures);
  await upsertRollups(trx, rollups, run);
  return { charged, userBalances };
}

const logInserts = new PrecompiledRows((db, _shape, rows) =>
  db.insertInto('logs').values(rows as unknown as NewLogRow[]),
);

/** The columns a settlement adds to its log row, after the row's own. */
const SETTLED_COLUMNS = ['type', 'quota', 'created_at'];

/**
 * The columns of a row that have a value. A column given as `undefined` takes its default, as Kysely's own
 * INSERT does: bound as a parameter it would be NULL, which a NOT NULL column refuses (and the batch with it).
 */
function definedColumns(row: Record<string, unknown>): string[] {
  const columns: string[] = [];
  for (const column in row) if (row[column] !== undefined) columns.push(column);
  return columns;
}

/** Whether the row's columns with a value are the first `count` of `columns`, in their order. */
function hasColumns(row: Record<string, unknown>, columns: readonly string[], count: number): boolean {
  let index = 0;
  for (const column in row) {
    if (row[column] === undefined) continue;
    if (index === count || column !== columns[index]) return false;
    index += 1;
  }
  return index === count;
}

/**
 * The consumption logs of the batch. Rows with the same columns in the same order (all of the relay's) go
 * into one statement per chunk; a multi-row INSERT needs one set of columns, so another shape starts another.
 */
async function insertConsumeLogs(
  trx: Db,
  run: RunStatement,
  batch: Settlement[],
  charged: number[],
): Promise<void> {
  let shape: LogShape | null = null;
  let values: unknown[] = [];
  let next = 0;
  let count = 0;
  for (let index = 0; index < batch.length; index += 1) {
    const log = batch[index].log as Record<string, unknown> | null;
    if (log === null) continue;
    if (shape === null || !hasColumns(log, shape.columns, shape.ownColumns)) {
      if (shape !== null) {
        values.length = next;
        await logInserts.execute(trx, shape.text, shape.columns, values, count, run);
      }
      shape = shapeOf(log);
      // Sized for every row left (then cut to those written): grown push by push, the values were copied
      // over and over (~36 per row).
      values = new Array((batch.length - index) * shape.columns.length);
      next = 0;
      count = 0;
    }
    const { columns, ownColumns } = shape;
    for (let column = 0; column < ownColumns; column += 1) values[next++] = log[columns[column]];
    values[next++] = LogType.consume;
    values[next++] = charged[index];
    values[next++] = batch[index].createdAt;
    count += 1;
  }
  if (shape !== null) {
    values.length = next;
    await logInserts.execute(trx, shape.text, shape.columns, values, count, run);
  }
}

/** The columns of a consumption log's INSERT: the row's own, then SETTLED_COLUMNS; `text` names the shape. */
interface LogShape {
  columns: string[];
  ownColumns: number;
  text: string;
}

/**
 * The relay's log rows all have the same columns: the last shape is kept, so a batch does not build its
 * column list and its ~450-character name again (with group commit, a batch is often one request).
 */
let lastLogShape: LogShape | null = null;

function shapeOf(log: Record<string, unknown>): LogShape {
  if (lastLogShape !== null && hasColumns(log, lastLogShape.columns, lastLogShape.ownColumns)) {
    return lastLogShape;
  }
  const own = definedColumns(log);
  const columns = [...own, ...SETTLED_COLUMNS];
  lastLogShape = { columns, ownColumns: own.length, text: columns.join() };
  return lastLogShape;
}

/** Whole log rows (the failures), one statement per chunk of rows with the same columns. */
async function insertLogRows(trx: Db, run: RunStatement, rows: readonly NewLogRow[]): Promise<void> {
  let columns: string[] = [];
  let values: unknown[] = [];
  let count = 0;
  for (const row of rows as ReadonlyArray<Record<string, unknown>>) {
    if (count === 0 || !hasColumns(row, columns, columns.length)) {
      if (count > 0) await logInserts.execute(trx, columns.join(), columns, values, count, run);
      columns = definedColumns(row);
      values = [];
      count = 0;
    }
    for (const column of columns) values.push(row[column]);
    count += 1;
  }
  if (count > 0) await logInserts.execute(trx, columns.join(), columns, values, count, run);
}

/**
 * Applies Σ(cost − reserved) to one balance. A refund (negative) always applies; a charge applies whole
 * when the balance covers it, else down to zero. Answers the part that could not be charged.
 */
async function settleBalance(
  db: Db,
  trx: Db,
  run: RunStatement,
  table: 'users' | 'tokens',
  column: 'quota' | 'remain_quota',
  id: number,
  batch: ReadonlyArray<Pick<Settlement, 'cost' | 'reserved'>>,
  indexes: readonly number[],
): Promise<number> {
  const difference = sumCosts(batch, indexes) - sumReserved(batch, indexes);
  if (difference === 0) return 0;
  const isUser = table === 'users';
  if (difference < 0) {
    const give = isUser ? addToUserBalance : addToTokenBalance;
    await run(give(db, id, -difference));
    return 0;
  }
  const takeWhole = isUser ? takeWholeFromUser : takeWholeFromToken;
  const whole = await run(takeWhole(db, id, difference), 1);
  if (Number(whole.numAffectedRows ?? 0) === 1) return 0;
  // Both tables spell the update alike; Kysely's types cannot follow a column chosen at run time.
  const update = () => trx.updateTable(table as 'users').where('id', '=', id);
  const balance = column as 'quota';
  let read = trx
    .selectFrom(table as 'users')
    .select(balance)
    .where('id', '=', id);
  if (!(trx.getExecutor().adapter instanceof SqliteAdapter)) read = read.forUpdate();
  const row = (await run(read.compile(), 1)).rows[0] as Partial<Record<typeof balance, unknown>> | undefined;
  const available = Math.max(0, Number(row?.[balance] ?? 0));
  const chargeable = Math.min(difference, available);
  if (chargeable > 0) {
    await run(
      update()
        .set((set) => ({ [balance]: set(balance, '-', chargeable) }))
        .compile(),
    );
  }
  return difference - chargeable;
}
