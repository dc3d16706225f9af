import type { FastifyBaseLogger } from 'fastify';
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
}

/** A user whose balance fell to or below QuotaRemindThreshold with this batch. */
export interface QuotaCrossing {
  userId: number;
  username: string;
  email: string;
  quota: number;
}

/**
 * Group commit without a wait: the settlements recorded during one turn of the event loop (every request
 * whose answer ended among the sockets that turn served) share one transaction, written right after that turn
 * (setImmediate). Every request waits for its batch's commit before its answer's last byte, so a fixed delay
 * here would be latency each request pays (a 4 ms timer was most of the added latency at concurrency 1),
 * while under load a turn gathers many requests by itself. A crash loses nothing that was delivered.
 */
const BATCH_DELAY_MS = 0;
/** A batch this big is written at once; the queue is bounded by the requests waiting for their commit. */
const MAX_BATCH = 500;
/** After a failed commit (the database away), the next try waits this long. */
const RETRY_DELAY_MS = 1000;
const LOG_ROWS_PER_INSERT = 100;
const RECORDS_PER_DELETE = 500;
/** Up to this many rows, compiled statements one row at a time; above, one built statement per chunk. */
const FEW = 8;

/** Some records of a batch were gone (recovery released them): the batch is redone one record at a time. */
class ReleasedMeanwhile extends Error {}

/** Settlements waiting for the same commit. */
interface Batch {
  settlements: Settlement[];
  /** error log rows of failed requests (nothing to settle: they were refunded whole) */
  failures: NewLogRow[];
  committed: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

function createBatch(): Batch {
  let resolve = () => {};
  let reject: (error: unknown) => void = () => {};
  const committed = new Promise<void>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  // A batch nobody awaits (retried settlements only) must not fail the process when it fails again.
  committed.catch(() => undefined);
  return { settlements: [], failures: [], committed, resolve, reject };
}

/** The reservation records a batch replaces. */
function recordIdsOf(batch: Settlement[]): string[] {
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

/**
 * Settles finished requests against the reservations they made: deletes their reservation records, charges or
 * refunds the difference, adds used quota and request counts to user, key and channel, and writes the
 * consumption logs — many requests in one transaction, a few milliseconds apart (group commit). When a balance cannot cover the part of a cost above its reservation (possible only
 * without max_tokens), it is taken down to zero, never below, and the logs record what was really charged,
 * so the logs always add up to the change in balances.
 */
export class SettlementLedger {
  private pending: Batch = createBatch();
  private flushing: Promise<void> = Promise.resolve();
  /** cancels the scheduled write, when one is */
  private timer: (() => void) | null = null;
  private isClosed = false;
  /** settlements announced but not recorded yet (their tokens are still being counted) */
  private readonly expected = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly quotaRemindThreshold: () => number,
    private readonly onQuotaCrossing: (crossing: QuotaCrossing) => void,
  ) {}

  /**
   * Queues a settlement; resolves when it is committed (shared by every settlement of its batch), rejects when
   * that commit failed — the settlement stays queued and is tried again, its reservation record kept until then.
   */
  record(settlement: Settlement): Promise<void> {
    const batch = this.pending;
    batch.settlements.push(settlement);
    if (batch.settlements.length >= MAX_BATCH) void this.write();
    else this.schedule(BATCH_DELAY_MS);
    return batch.committed;
  }

  /**
   * Queues the error log row of a request that failed after its reservation (refunded already): it is written
   * with the next batch, counted in the rollups with it, and nobody waits for it.
   */
  recordFailure(log: NewLogRow): void {
    this.pending.failures.push(log);
    this.schedule(BATCH_DELAY_MS);
  }

  private schedule(delayMs: number): void {
    if (this.timer || this.isClosed) return;
    const run = () => {
      this.timer = null;
      void this.write();
    };
    if (delayMs === 0) {
      const immediate = setImmediate(run);
      this.timer = () => clearImmediate(immediate);
    } else {
      const timeout = setTimeout(run, delayMs);
      this.timer = () => clearTimeout(timeout);
    }
  }

  /**
   * Announces a settlement that is recorded a little later (its tokens are being counted, which may first
   * load the tokenizer): flush() and close() wait for it. Call the answer once it is recorded, or not needed.
   */
  expectSettlement(): () => void {
    let done = () => {};
    const recorded = new Promise<void>((resolve) => (done = resolve));
    this.expected.add(recorded);
    return () => {
      this.expected.delete(recorded);
      done();
    };
  }

  /** Writes everything recorded or announced so far; resolves when it is in the database. */
  async flush(): Promise<void> {
    if (this.expected.size > 0) await Promise.all(this.expected);
    await this.write();
  }

  private write(): Promise<void> {
    this.flushing = this.flushing.then(() => this.flushQueued());
    return this.flushing;
  }

  async close(): Promise<void> {
    this.isClosed = true;
    this.timer?.();
    this.timer = null;
    await this.flush();
  }

  private async flushQueued(): Promise<void> {
    const { settlements: batch, failures, resolve, reject } = this.pending;
    if (batch.length === 0 && failures.length === 0) return;
    this.pending = createBatch();
    let charged: number[];
    try {
      charged = await this.commit(batch, failures);
    } catch (error) {
      // Nothing was written: the waiting requests learn it now, and the batch is tried again later.
      reject(error);
      this.pending.settlements.unshift(...batch);
      this.pending.failures.unshift(...failures);
      this.log.error({ err: error }, 'settling relay requests failed; will retry');
      this.schedule(RETRY_DELAY_MS);
      return;
    }
    resolve();
    await this.findCrossings(batch, charged).catch((error: unknown) =>
      this.log.error({ err: error }, 'quota reminder check failed'),
    );
  }

  /**
   * One transaction for the batch; its records are deleted last, after users and keys, the lock order of the
   * reservation (which writes its record last), so the two never deadlock. When recovery released some
   * records first (their server was thought gone), the batch is rolled back and redone with those settling as
   * if nothing had been reserved: the released amount is back on the balances already.
   */
  private async commit(batch: Settlement[], failures: NewLogRow[]): Promise<number[]> {
    try {
      return await this.applyAndDelete(batch, failures);
    } catch (error) {
      if (!(error instanceof ReleasedMeanwhile)) throw error;
    }
    const ids = recordIdsOf(batch);
    const existing = new Set<string>();
    for (let start = 0; start < ids.length; start += RECORDS_PER_DELETE) {
      const rows = await this.db
        .selectFrom('quota_reservations')
        .select('id')
        .where('id', 'in', ids.slice(start, start + RECORDS_PER_DELETE))
        .execute();
      for (const row of rows) existing.add(row.id);
    }
    return this.applyAndDelete(
      batch.map((settlement) =>
        settlement.reservationId === undefined || existing.has(settlement.reservationId)
          ? settlement
          : { ...settlement, reservationId: undefined, reserved: 0 },
      ),
      failures,
    );
  }

  private applyAndDelete(batch: Settlement[], failures: NewLogRow[]): Promise<number[]> {
    return this.db.transaction().execute(async (trx) => {
      const charged = await this.apply(trx, batch, failures);
      await this.deleteRecords(trx, batch);
      return charged;
    });
  }

  private async deleteRecords(trx: Trx, batch: Settlement[]): Promise<void> {
    const ids = recordIdsOf(batch);
    // A few records (most batches): one compiled statement each; many: a DELETE … IN per chunk.
    if (ids.length <= FEW) {
      for (const id of ids) {
        const result = await trx.executeQuery(deleteReservationRecord(this.db, id));
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

  private async apply(trx: Trx, batch: Settlement[], failures: NewLogRow[]): Promise<number[]> {
    const charged = batch.map((settlement) => settlement.cost);
    const all = batch.map((_, index) => index);
    // Users, then keys, then channels: the same lock order as the reservation.
    const byUser = [...groupBy(all, (index) => batch[index].holder.userId)].sort((a, b) => a[0] - b[0]);
    for (const [userId, indexes] of byUser) {
      // Mostly the balance covers the difference: balance and usage in one statement.
      const difference = indexes.reduce((sum, index) => sum + batch[index].cost - batch[index].reserved, 0);
      const cost = indexes.reduce((sum, index) => sum + batch[index].cost, 0);
      const settled = await trx.executeQuery(
        settleUserWhole(this.db, userId, difference, cost, indexes.length),
      );
      if (Number(settled.numAffectedRows ?? 0) === 1) continue;
      const shortfall = await this.settleBalance(trx, 'users', 'quota', userId, batch, indexes);
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
      await trx.executeQuery(addUserUsage(this.db, userId, used, indexes.length));
    }
    const byToken = [...groupBy(all, (index) => batch[index].holder.tokenId)].sort((a, b) => a[0] - b[0]);
    for (const [tokenId, indexes] of byToken) {
      const accessedTime = Math.max(...indexes.map((index) => batch[index].createdAt));
      const used = indexes.reduce((sum, index) => sum + charged[index], 0);
      if (!batch[indexes[0]].holder.isUnlimitedToken) {
        const difference = indexes.reduce((sum, index) => sum + charged[index] - batch[index].reserved, 0);
        const settled = await trx.executeQuery(
          settleTokenWhole(this.db, tokenId, difference, used, indexes.length, accessedTime),
        );
        if (Number(settled.numAffectedRows ?? 0) === 1) continue;
        const costs = indexes.map((index) => ({ ...batch[index], cost: charged[index] }));
        await this.settleBalance(
          trx,
          'tokens',
          'remain_quota',
          tokenId,
          costs,
          costs.map((_, i) => i),
        );
      }
      await trx.executeQuery(addTokenUsage(this.db, tokenId, used, indexes.length, accessedTime));
    }
    const byChannel = [...groupBy(all, (index) => batch[index].channelId)].sort((a, b) => a[0] - b[0]);
    for (const [channelId, indexes] of byChannel) {
      const used = indexes.reduce((sum, index) => sum + charged[index], 0);
      await trx.executeQuery(addChannelUsage(this.db, channelId, used, indexes.length));
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
    await this.insertLogs(trx, logs);
    await this.insertLogs(trx, failures);
    await addLogsToRollups(trx, [...logs, ...failures]);
    return charged;
  }

  private async insertLogs(trx: Trx, logs: NewLogRow[]): Promise<void> {
    if (logs.length <= FEW) {
      for (const log of logs) await trx.executeQuery(insertLogRow(this.db, log));
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
  private async settleBalance(
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
      await trx.executeQuery(give(this.db, id, -difference));
      return 0;
    }
    const takeWhole = isUser ? takeWholeFromUser : takeWholeFromToken;
    const whole = await trx.executeQuery(takeWhole(this.db, id, difference));
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

  /** Users whose balance went from above QuotaRemindThreshold to at or below it with this batch. */
  private async findCrossings(batch: Settlement[], charged: number[]): Promise<void> {
    const threshold = this.quotaRemindThreshold();
    if (threshold <= 0) return;
    const spentByUser = new Map<number, number>();
    batch.forEach((settlement, index) => {
      const userId = settlement.holder.userId;
      spentByUser.set(userId, (spentByUser.get(userId) ?? 0) + charged[index]);
    });
    const spenders = [...spentByUser].filter(([, spent]) => spent > 0).map(([userId]) => userId);
    if (spenders.length === 0) return;
    const users = await this.db
      .selectFrom('users')
      .select(['id', 'username', 'email', 'quota'])
      .where('id', 'in', spenders)
      .execute();
    for (const user of users) {
      const quota = Number(user.quota);
      const before = quota + (spentByUser.get(user.id) ?? 0);
      if (before > threshold && quota <= threshold) {
        this.onQuotaCrossing({ userId: user.id, username: user.username, email: user.email, quota });
      }
    }
  }
}
