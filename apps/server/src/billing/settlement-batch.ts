import { SqliteAdapter, type Transaction } from 'kysely';
import { LogType } from '@gatehouse/shared';
import type { Db } from '../db/database';
import type { Database, NewLogRow } from '../db/schema';
import { addLogsToRollups } from '../rollups/usage-rollups';
import type { QuotaHolder } from './quota-reservation';
import {
  addChannelUsage,
  addToTokenBalance,
  addToUserBalance,
  addTokenUsage,
  addUserUsage,
  deleteReservationRecord,
  insertLogRow,
  settleTokenWhole,
  settleUserWhole,
  takeWholeFromToken,
  takeWholeFromUser,
} from './settlement-statements';

// What one settlement transaction writes, for SettlementLedger (which queues, batches and retries): the
// balances and usage of users, keys and channels, the log rows, and the deleted reservation records.

type Trx = Transaction<Database>;

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
}

const LOG_ROWS_PER_INSERT = 100;
export const RECORDS_PER_DELETE = 500;
/** Up to this many rows, compiled statements one row at a time; above, one built statement per chunk. */
const FEW = 8;

/** Some records of a batch were gone (recovery released them): the batch is redone one record at a time. */
export class ReleasedMeanwhile extends Error {}

/** The reservation records a batch replaces. */
export function recordIdsOf(batch: Settlement[]): string[] {
  return batch.flatMap((settlement) =>
    settlement.reservationId !== undefined && settlement.reserved > 0 ? [settlement.reservationId] : [],
  );
}

function groupBy<Key>(items: number[], keyOf: (index: number) => Key): Map<Key, number[]> {
  const groups = new Map<Key, number[]>();
  for (const index of items) {
    const key = keyOf(index);
    const group = groups.get(key);
    if (group) group.push(index);
    else groups.set(key, [index]);
  }
  return groups;
}

/** Deletes the batch's reservation records; throws ReleasedMeanwhile when some were gone already. */
export async function deleteReservationRecords(db: Db, trx: Trx, batch: Settlement[]): Promise<void> {
  const ids = recordIdsOf(batch);
  // A few records (most batches): one compiled statement each; many: a DELETE … IN per chunk.
  if (ids.length <= FEW) {
    for (const id of ids) {
      const result = await trx.executeQuery(deleteReservationRecord(db, id));
      if (Number(result.numAffectedRows ?? 0) !== 1) throw new ReleasedMeanwhile();
    }
    return;
  }
  let deleted = 0;
  for (let start = 0; start < ids.length; start += RECORDS_PER_DELETE) {
    const result = await trx
      .deleteFrom('quota_reservations')
      .where('id', 'in', ids.slice(start, start + RECORDS_PER_DELETE))
      .executeTakeFirst();
    deleted += Number(result.numDeletedRows);
  }
  if (deleted !== ids.length) throw new ReleasedMeanwhile();
}

/** Charges or refunds each settlement's difference and writes usage and logs; answers what each was charged. */
export async function applySettlements(
  db: Db,
  trx: Trx,
  batch: Settlement[],
  failures: NewLogRow[],
): Promise<number[]> {
  const charged = batch.map((settlement) => settlement.cost);
  const all = batch.map((_, index) => index);
  // Users, then keys, then channels: the same lock order as the reservation.
  const byUser = [...groupBy(all, (index) => batch[index].holder.userId)].sort((a, b) => a[0] - b[0]);
  for (const [userId, indexes] of byUser) {
    // Mostly the balance covers the difference: balance and usage in one statement.
    const difference = indexes.reduce((sum, index) => sum + batch[index].cost - batch[index].reserved, 0);
    const cost = indexes.reduce((sum, index) => sum + batch[index].cost, 0);
    const settled = await trx.executeQuery(settleUserWhole(db, userId, difference, cost, indexes.length));
    if (Number(settled.numAffectedRows ?? 0) === 1) continue;
    const shortfall = await settleBalance(db, trx, 'users', 'quota', userId, batch, indexes);
    // The part of a cost the balance could not cover was not charged: take it off the latest requests.
    let left = shortfall;
    for (let cursor = indexes.length - 1; cursor >= 0 && left > 0; cursor -= 1) {
      const index = indexes[cursor];
      const extra = Math.max(0, batch[index].cost - batch[index].reserved);
      const cut = Math.min(extra, left);
      charged[index] -= cut;
      left -= cut;
    }
    const used = indexes.reduce((sum, index) => sum + charged[index], 0);
    await trx.executeQuery(addUserUsage(db, userId, used, indexes.length));
  }
  const byToken = [...groupBy(all, (index) => batch[index].holder.tokenId)].sort((a, b) => a[0] - b[0]);
  for (const [tokenId, indexes] of byToken) {
    const accessedTime = Math.max(...indexes.map((index) => batch[index].createdAt));
    const used = indexes.reduce((sum, index) => sum + charged[index], 0);
    if (!batch[indexes[0]].holder.isUnlimitedToken) {
      const difference = indexes.reduce((sum, index) => sum + charged[index] - batch[index].reserved, 0);
      const settled = await trx.executeQuery(
        settleTokenWhole(db, tokenId, difference, used, indexes.length, accessedTime),
      );
      if (Number(settled.numAffectedRows ?? 0) === 1) continue;
      const costs = indexes.map((index) => ({ cost: charged[index], reserved: batch[index].reserved }));
      await settleBalance(
        db,
        trx,
        'tokens',
        'remain_quota',
        tokenId,
        costs,
        costs.map((_, i) => i),
      );
    }
    await trx.executeQuery(addTokenUsage(db, tokenId, used, indexes.length, accessedTime));
  }
  const byChannel = [...groupBy(all, (index) => batch[index].channelId)].sort((a, b) => a[0] - b[0]);
  for (const [channelId, indexes] of byChannel) {
    const used = indexes.reduce((sum, index) => sum + charged[index], 0);
    await trx.executeQuery(addChannelUsage(db, channelId, used, indexes.length));
  }
  const logs: NewLogRow[] = all
    .filter((index) => batch[index].log !== null)
    .map((index) => ({
      ...batch[index].log,
      type: LogType.consume,
      quota: charged[index],
      created_at: batch[index].createdAt,
    }));
  // Apart: a multi-row INSERT needs one set of columns, and the two kinds of rows fill different ones.
  await insertLogs(db, trx, logs);
  await insertLogs(db, trx, failures);
  await addLogsToRollups(trx, [...logs, ...failures]);
  return charged;
}

async function insertLogs(db: Db, trx: Trx, logs: NewLogRow[]): Promise<void> {
  if (logs.length <= FEW) {
    for (const log of logs) await trx.executeQuery(insertLogRow(db, log));
    return;
  }
  for (let start = 0; start < logs.length; start += LOG_ROWS_PER_INSERT) {
    await trx
      .insertInto('logs')
      .values(logs.slice(start, start + LOG_ROWS_PER_INSERT))
      .execute();
  }
}

/**
 * Applies Σ(cost − reserved) to one balance. A refund (negative) always applies; a charge applies whole
 * when the balance covers it, else down to zero. Answers the part that could not be charged.
 */
async function settleBalance(
  db: Db,
  trx: Trx,
  table: 'users' | 'tokens',
  column: 'quota' | 'remain_quota',
  id: number,
  batch: ReadonlyArray<Pick<Settlement, 'cost' | 'reserved'>>,
  indexes: number[],
): Promise<number> {
  const difference = indexes.reduce((sum, index) => sum + batch[index].cost - batch[index].reserved, 0);
  if (difference === 0) return 0;
  const isUser = table === 'users';
  if (difference < 0) {
    const give = isUser ? addToUserBalance : addToTokenBalance;
    await trx.executeQuery(give(db, id, -difference));
    return 0;
  }
  const takeWhole = isUser ? takeWholeFromUser : takeWholeFromToken;
  const whole = await trx.executeQuery(takeWhole(db, id, difference));
  if (Number(whole.numAffectedRows ?? 0) === 1) return 0;
  // Both tables spell the update alike; Kysely's types cannot follow a column chosen at run time.
  const update = () => trx.updateTable(table as 'users').where('id', '=', id);
  const balance = column as 'quota';
  let read = trx
    .selectFrom(table as 'users')
    .select(balance)
    .where('id', '=', id);
  if (!(trx.getExecutor().adapter instanceof SqliteAdapter)) read = read.forUpdate();
  const row = await read.executeTakeFirst();
  const available = Math.max(0, Number(row?.[balance] ?? 0));
  const chargeable = Math.min(difference, available);
  if (chargeable > 0)
    await update()
      .set((set) => ({ [balance]: set(balance, '-', chargeable) }))
      .execute();
  return difference - chargeable;
}
