import type { Db } from '../db/database';
import type {
  QuotaHolder,
  ReservationRecord,
  ReservationRequest,
  ReservationShortfall,
} from './quota-reservation';
import { reserveQuotaBatch } from './reserve-quota-batch';

/** A request and its waiter in one object: the queue is the batch's list of requests as it is. */
interface Waiting extends ReservationRequest {
  resolve: (shortfall: ReservationShortfall | null) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for reservations on a database with one writer (SQLite): the reservations asked for during
 * one turn of the event loop are taken in one transaction right after that turn (setImmediate), so the
 * commit, and the synchronous database work around it, is paid once per turn instead of once per request
 * (measured in isolation: 18 µs of CPU per reservation in batches of 8 or more, against 55–85 µs with a
 * transaction each). A request waits no longer than for its own transaction: there is no timer. Each request
 * still goes upstream only once its reservation is committed.
 */
export class ReservationBatcher {
  private queue: Waiting[] = [];
  private isScheduled = false;

  constructor(private readonly db: Db) {}

  reserve(
    holder: QuotaHolder,
    amount: number,
    record: ReservationRecord,
  ): Promise<ReservationShortfall | null> {
    return new Promise((resolve, reject) => {
      this.queue.push({ holder, amount, record, resolve, reject });
      if (this.isScheduled) return;
      this.isScheduled = true;
      setImmediate(() => void this.write());
    });
  }

  private async write(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    this.isScheduled = false;
    try {
      const shortfalls = await reserveQuotaBatch(this.db, batch);
      for (let index = 0; index < batch.length; index += 1) batch[index].resolve(shortfalls[index]);
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    }
  }
}
