import type { FastifyBaseLogger } from 'fastify';
import { SqliteAdapter } from 'kysely';
import { LogType } from '@gatehouse/shared';
import type { Db } from '../db/database';
import type { NewLogRow } from '../db/schema';
import { writeTransaction } from '../db/direct-statements';
import {
  RECORDS_PER_DELETE,
  ReleasedMeanwhile,
  applySettlements,
  deleteReservationRecords,
  type AppliedBatch,
  recordIdsOf,
  type Settlement,
} from './settlement-batch';
import { findReleased } from './reservation-recovery';
import { readUserForReminder } from './settlement-statements';

interface UserForReminder {
  id: number;
  username: string;
  email: string;
  quota: number;
}

export type { Settlement } from './settlement-batch';

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
/**
 * How long a withheld answer waits for its charge once a commit failed, on a database over the network. A
 * commit that fails as the connection drops may have gone through all the same; the next try finds out (its
 * reservation record is gone), and then the answer is delivered, being charged, or charged now and
 * delivered. Past this wait the client gets its 503 and the charge is refunded — exact unless that earlier
 * commit did go through after all, which the next try then logs (the answer was not delivered but stays
 * charged). SQLite's commit is a call in this process: when it fails, nothing was committed, so there is no
 * wait — unless the write thread stopped while running it (WriteThreadLost, in doubt like a lost connection).
 */
const WITHHELD_WAIT_MS = 15_000;

/** The error log row of an answer withheld because its charge could not be committed. */
export const WITHHELD_NOTE =
  '503 settlement_failed: the answer was withheld because its charge could not be recorded; nothing charged';

/**
 * What a withheld answer's settlement becomes once the client was told its charge could not be recorded: the
 * client got none of the answer, so it is refunded whole and logged as failed. (One the client got part of,
 * a stream, is still charged.)
 */
function refundWithheld(settlement: Settlement, failures: NewLogRow[]): Settlement {
  if (settlement.log) {
    failures.push({
      ...settlement.log,
      type: LogType.error,
      quota: 0,
      created_at: settlement.createdAt,
      content: WITHHELD_NOTE,
    });
  }
  return { ...settlement, cost: 0, log: null, isWithheld: false, waiter: undefined };
}

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

  /** see WITHHELD_WAIT_MS */
  private readonly withheldWaitMs: number;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly quotaRemindThreshold: () => number,
    private readonly onQuotaCrossing: (crossing: QuotaCrossing) => void,
  ) {
    this.withheldWaitMs = db.getExecutor().adapter instanceof SqliteAdapter ? 0 : WITHHELD_WAIT_MS;
  }

  /**
   * Queues a settlement; resolves when it is committed (shared by every settlement of its batch), rejects when
   * that commit failed — the settlement stays queued and is tried again, its reservation record kept until then.
   */
  record(settlement: Settlement): Promise<void> {
    const batch = this.pending;
    batch.settlements.push(settlement);
    if (batch.settlements.length >= MAX_BATCH) void this.write();
    else this.schedule(BATCH_DELAY_MS);
    if (!settlement.isWithheld) return batch.committed;
    // A withheld answer waits for its own charge, which may outlive this batch (see WITHHELD_WAIT_MS).
    return new Promise((resolve, reject) => (settlement.waiter = { resolve, reject, failedAt: 0 }));
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
    let applied: AppliedBatch;
    try {
      applied = await this.commit(batch, failures);
    } catch (error) {
      // Not written, or not known to be: the batch is tried again later. Requests whose client has part of
      // the answer (streams) learn it now; a withheld answer waits for the next tries a while (its commit may
      // have gone through), then is refunded and its client told.
      reject(error);
      const refunded: NewLogRow[] = [];
      const now = Date.now();
      // SQLite's write thread stopped while it ran the commit: it may have gone through, as over a network.
      const waitMs = (error as { isInDoubt?: boolean } | null)?.isInDoubt
        ? WITHHELD_WAIT_MS
        : this.withheldWaitMs;
      const retried = batch.map((settlement) => {
        const waiter = settlement.waiter;
        if (!waiter) return settlement;
        if (waiter.failedAt === 0) waiter.failedAt = now;
        if (!this.isClosed && now - waiter.failedAt < waitMs) return settlement;
        waiter.reject(error);
        return refundWithheld(settlement, refunded);
      });
      this.pending.settlements.unshift(...retried);
      this.pending.failures.unshift(...failures, ...refunded);
      this.log.error({ err: error }, 'settling relay requests failed; will retry');
      this.schedule(RETRY_DELAY_MS);
      return;
    }
    resolve();
    for (const settlement of batch) settlement.waiter?.resolve();
    await this.findCrossings(batch, applied).catch((error: unknown) =>
      this.log.error({ err: error }, 'quota reminder check failed'),
    );
  }

  /**
   * One transaction for the batch; its records are deleted last, after users and keys, the lock order of the
   * reservation (which writes its record last), so the two never deadlock. When some records were gone, the
   * batch is rolled back and redone without them: a record recovery released (its server was thought gone;
   * quota_releases says so) settles as if nothing had been reserved, the amount being back on the balances
   * already; one that is gone otherwise was deleted by this settlement's own earlier commit, whose success
   * the database did not get to report — it is settled, and is dropped so it is never charged twice.
   */
  private async commit(batch: Settlement[], failures: NewLogRow[]): Promise<AppliedBatch> {
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
    const released = await findReleased(
      this.db,
      ids.filter((id) => !existing.has(id)),
    );
    const isSettledAlready = (settlement: Settlement) =>
      settlement.reservationId !== undefined &&
      settlement.reserved > 0 &&
      !existing.has(settlement.reservationId) &&
      !released.has(settlement.reservationId);
    const redo = batch.map((settlement) =>
      settlement.reservationId === undefined || existing.has(settlement.reservationId)
        ? settlement
        : { ...settlement, reservationId: undefined, reserved: 0 },
    );
    const settledAlready = batch.map(isSettledAlready);
    if (settledAlready.some(Boolean)) {
      this.log.error(
        { requestIds: batch.filter((_, index) => settledAlready[index]).map((item) => item.reservationId) },
        'settlements found committed by an earlier try the database reported failed; not charged again',
      );
    }
    const { charged, userBalances } = await this.applyAndDelete(
      redo.filter((_, index) => !settledAlready[index]),
      failures,
    );
    // One charge per settlement of the batch; 0 for those settled already (counted by their first commit).
    let next = 0;
    return {
      charged: settledAlready.map((isSettled) => (isSettled ? 0 : charged[next++])),
      userBalances,
    };
  }

  private applyAndDelete(batch: Settlement[], failures: NewLogRow[]): Promise<AppliedBatch> {
    return writeTransaction(this.db, async (trx, run) => {
      const applied = await applySettlements(this.db, trx, run, batch, failures);
      await deleteReservationRecords(trx, run, batch);
      return applied;
    });
  }

  /**
   * Users whose balance went from above QuotaRemindThreshold to at or below it with this batch: from the
   * balances the batch's UPDATE answered, else (MySQL, a balance that could not cover the batch) read now.
   */
  private async findCrossings(batch: Settlement[], { charged, userBalances }: AppliedBatch): Promise<void> {
    const threshold = this.quotaRemindThreshold();
    if (threshold <= 0) return;
    const spentByUser = new Map<number, number>();
    batch.forEach((settlement, index) => {
      const userId = settlement.holder.userId;
      spentByUser.set(userId, (spentByUser.get(userId) ?? 0) + charged[index]);
    });
    const spenders = [...spentByUser].filter(([, spent]) => spent > 0).map(([userId]) => userId);
    const unread = spenders.filter((userId) => !userBalances.has(userId));
    const quotas = new Map<number, number>();
    for (const [userId, row] of userBalances) quotas.set(userId, Number(row.quota));
    const addresses = new Map<number, UserForReminder>();
    // Mostly one spender per batch: its statement compiled once; several: one query for them all.
    const users =
      unread.length === 0
        ? []
        : unread.length === 1
          ? (await this.db.executeQuery<UserForReminder>(readUserForReminder(this.db, unread[0]))).rows
          : await this.db
              .selectFrom('users')
              .select(['id', 'username', 'email', 'quota'])
              .where('id', 'in', unread)
              .execute();
    for (const user of users) {
      quotas.set(user.id, Number(user.quota));
      addresses.set(user.id, user);
    }
    for (const userId of spenders) {
      const quota = quotas.get(userId);
      if (quota === undefined) continue;
      const before = quota + (spentByUser.get(userId) ?? 0);
      if (before > threshold && quota <= threshold) {
        // Rare: the address is read only for a user who crossed.
        const user =
          addresses.get(userId) ??
          (await this.db.executeQuery<UserForReminder>(readUserForReminder(this.db, userId))).rows[0];
        if (user) {
          this.onQuotaCrossing({ userId, username: user.username, email: user.email, quota });
        }
      }
    }
  }
}
