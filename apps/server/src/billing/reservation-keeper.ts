import type { FastifyBaseLogger } from 'fastify';
import { SqliteAdapter } from 'kysely';
import type { Db } from '../db/database';
import {
  reserveQuota,
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
  releaseAbandonedReservations,
  renewLeases,
} from './reservation-recovery';

type Logger = Pick<FastifyBaseLogger, 'info' | 'error'>;

/**
 * This server's side of the reservation records: names the records it writes, renews their leases while its
 * requests run, and every RECOVERY_SWEEP_MS releases those whose server stopped renewing (any instance may:
 * the release is conditional). The master node also releases at start, before it serves anything.
 */
export class ReservationKeeper {
  readonly nodeId = createNodeId();
  private readonly timers: NodeJS.Timeout[] = [];
  /** SQLite only: one writer, so reservations share a commit per event-loop turn */
  private readonly batcher: ReservationBatcher | null;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
  ) {
    this.batcher = db.getExecutor().adapter instanceof SqliteAdapter ? new ReservationBatcher(db) : null;
  }

  /** The record a reservation for `requestId` writes. */
  recordFor(requestId: string): ReservationRecord {
    return { id: requestId, nodeId: this.nodeId, leaseSeconds: LEASE_SECONDS };
  }

  /**
   * Takes `amount` from the user and the key for `requestId`, with its record (reserveQuota). On SQLite the
   * reservations of one event-loop turn share a transaction; PostgreSQL and MySQL take each in its own, in
   * parallel on their pools. Answers null when reserved.
   */
  reserve(holder: QuotaHolder, amount: number, requestId: string): Promise<ReservationShortfall | null> {
    const record = this.recordFor(requestId);
    if (this.batcher === null || amount <= 0) return reserveQuota(this.db, holder, amount, record);
    return this.batcher.reserve({ holder, amount, record });
  }

  /** Releases what crashed servers left; throws ReservationRecordsError on records it must not guess at. */
  async recoverAtStart(): Promise<void> {
    const released = await releaseAbandonedReservations(this.db, this.nodeId).catch((error: unknown) => {
      if (!(error instanceof ReservationRecordsError)) throw error;
      throw new ReservationRecordsError(`The server will not start: ${error.message}`);
    });
    if (released > 0) this.log.info(`released ${released} quota reservations left by a stopped server`);
  }

  start(): void {
    const renew = setInterval(() => {
      renewLeases(this.db, this.nodeId).catch((error: unknown) =>
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
  }

  private async sweep(): Promise<void> {
    try {
      const released = await releaseAbandonedReservations(this.db, this.nodeId);
      if (released > 0) this.log.info(`released ${released} quota reservations whose lease ran out`);
    } catch (error) {
      const message =
        error instanceof ReservationRecordsError ? error.message : 'releasing reservations failed';
      this.log.error({ err: error }, message);
    }
  }
}
