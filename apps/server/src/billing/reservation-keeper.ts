import type { FastifyBaseLogger } from 'fastify';
import { SqliteAdapter } from 'kysely';
import type { Db } from '../db/database';
import {
  refundQuota,
  type QuotaHolder,
  type ReservationRecord,
  type ReservationShortfall,
} from './quota-reservation';
import { ReservationBatcher } from './reservation-batcher';
import {
  LEASE_RENEWAL_MS,
  LEASE_SECONDS,
  RECOVERY_SWEEP_MS,
  ReservationRecordsError,
  createNodeId,
  pruneReleaseMarks,
  releaseAbandonedReservations,
  renewLeases,
} from './reservation-recovery';

/** After a refund failed (the database away), the next try waits this long. */
const REFUND_RETRY_MS = 1000;

interface PendingRefund {
  holder: QuotaHolder;
  amount: number;
}

type Logger = Pick<FastifyBaseLogger, 'info' | 'error'>;

/**
 * This server's side of the reservation records: names the records it writes, renews their leases while their
 * requests run (and only then), retries the refunds of failed requests the database refused, and when it starts
 * and every RECOVERY_SWEEP_MS releases those whose lease ran out or whose process on this host is gone — other
 * servers' and its own finished ones (any instance may: the release is conditional). The master node also
 * releases at start, before it serves anything.
 */
export class ReservationKeeper {
  readonly nodeId = createNodeId();
  private readonly timers: NodeJS.Timeout[] = [];
  /** reservations share a commit per event-loop turn: all of them on SQLite, each user's elsewhere */
  private readonly batcher: ReservationBatcher;
  /** the reservations of requests this process is running: the only leases it renews */
  private readonly running = new Set<string>();
  /** refunds the database refused, by record id: retried until written or released */
  private readonly refunds = new Map<string, PendingRefund>();
  private refundTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
  ) {
    // SQLite has one writer: one transaction at a time in any case. PostgreSQL and MySQL lock a user's row
    // for each reservation of theirs: a user's requests go together, other users' beside them.
    const isOneWriter = db.getExecutor().adapter instanceof SqliteAdapter;
    this.batcher = new ReservationBatcher(db, isOneWriter ? () => 0 : (holder) => holder.userId);
  }

  /** The record a reservation for `requestId` writes. */
  recordFor(requestId: string): ReservationRecord {
    return { id: requestId, nodeId: this.nodeId, leaseSeconds: LEASE_SECONDS };
  }

  /**
   * Takes `amount` from the user and the key for `requestId`, with its record (reserveQuota), in a transaction
   * shared with the reservations of the same event-loop turn (ReservationBatcher): on SQLite all of them, on
   * PostgreSQL and MySQL those of the same user (other users' run in parallel on the pool). Answers null when
   * reserved.
   */
  async reserve(
    holder: QuotaHolder,
    amount: number,
    requestId: string,
  ): Promise<ReservationShortfall | null> {
    const record = this.recordFor(requestId);
    let shortfall: ReservationShortfall | null;
    try {
      // Nothing to take: nothing to write (reserveQuota's rule too).
      shortfall = amount <= 0 ? null : await this.batcher.reserve(holder, amount, record);
    } catch (error) {
      // A connection lost while its COMMIT was under way leaves the outcome unknown: the reservation may stand.
      // Its refund is queued like a refused one; it gives back only if the record exists (else a no-op).
      if (amount > 0) this.queueRefund(requestId, { holder, amount });
      throw error;
    }
    if (shortfall === null && amount > 0) this.running.add(requestId);
    return shortfall;
  }

  /** The request finished: its lease is no longer renewed (its settlement or refund deletes the record). */
  finished(requestId: string): void {
    this.running.delete(requestId);
  }

  /**
   * Gives a failed request's reservation back with its record (refundQuota). When the database refuses, the
   * refund is retried every second until written — or until the record is released when its lease runs out,
   * whichever comes first; the record's delete makes sure it is given back once. Rejects with the first error.
   */
  async refund(holder: QuotaHolder, amount: number, requestId: string): Promise<void> {
    try {
      await refundQuota(this.db, holder, amount, requestId);
    } catch (error) {
      this.queueRefund(requestId, { holder, amount });
      throw error;
    }
  }

  private queueRefund(requestId: string, refund: PendingRefund): void {
    this.refunds.set(requestId, refund);
    this.scheduleRefunds();
  }

  private scheduleRefunds(): void {
    if (this.refundTimer !== null) return;
    this.refundTimer = setTimeout(() => void this.retryRefunds(), REFUND_RETRY_MS);
    this.refundTimer.unref();
  }

  private async retryRefunds(): Promise<void> {
    this.refundTimer = null;
    for (const [requestId, { holder, amount }] of this.refunds) {
      try {
        await refundQuota(this.db, holder, amount, requestId);
        this.refunds.delete(requestId);
      } catch {
        break; // the database is still away: the rest waits for the next try
      }
    }
    if (this.refunds.size > 0) this.scheduleRefunds();
    else this.log.info('refunds the database refused earlier are written (or had nothing to give back)');
  }

  /** Releases what crashed servers left; throws ReservationRecordsError on records it must not guess at. */
  async recoverAtStart(): Promise<void> {
    const released = await releaseAbandonedReservations(this.db, this.nodeId).catch((error: unknown) => {
      if (!(error instanceof ReservationRecordsError)) throw error;
      throw new ReservationRecordsError(`The server will not start: ${error.message}`);
    });
    if (released > 0) this.log.info(`released ${released} quota reservations left by a stopped server`);
  }

  /**
   * Renews this server's leases and sweeps every RECOVERY_SWEEP_MS — the first sweep at once: a worker the
   * cluster's primary starts again after a crash (not the master, which released at start already) gives back
   * what its dead predecessor on this host held now, not up to 30 s later.
   */
  start(): void {
    void this.sweep();
    const renew = setInterval(() => {
      renewLeases(this.db, this.nodeId, [...this.running]).catch((error: unknown) =>
        this.log.error({ err: error }, 'renewing quota reservation leases failed'),
      );
    }, LEASE_RENEWAL_MS);
    const sweep = setInterval(() => void this.sweep(), RECOVERY_SWEEP_MS);
    renew.unref();
    sweep.unref();
    this.timers.push(renew, sweep);
  }

  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
    if (this.refundTimer !== null) clearTimeout(this.refundTimer);
  }

  private async sweep(): Promise<void> {
    try {
      const released = await releaseAbandonedReservations(this.db, this.nodeId, (id) => this.running.has(id));
      if (released > 0) this.log.info(`released ${released} quota reservations whose lease ran out`);
      await pruneReleaseMarks(this.db);
    } catch (error) {
      const message =
        error instanceof ReservationRecordsError ? error.message : 'releasing reservations failed';
      this.log.error({ err: error }, message);
    }
  }
}
