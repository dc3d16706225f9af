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

/** The queue of one lock domain, and whether its write is scheduled or under way. */
interface Domain {
  queue: Waiting[];
  isBusy: boolean;
}

/**
 * Group commit for reservations: the reservations asked for during one turn of the event loop are taken in
 * one transaction right after that turn (setImmediate), so the commit, and the database work around it, is
 * paid once per turn instead of once per request (measured in isolation on SQLite: 18 µs of CPU per
 * reservation in batches of 8 or more, against 55–85 µs with a transaction each). A request waits no longer
 * than for its own transaction: there is no timer. Each request still goes upstream only once its reservation
 * is committed.
 *
 * `domainOf` names the lock domain of a request: requests of one domain share a queue, and one domain's
 * transactions run one after another; different domains' run side by side. On SQLite, one writer: a single
 * domain. On PostgreSQL and MySQL, the user, whose row every reservation of theirs locks: one transaction per
 * request would wait for the commit (an fsync) of the one before it, capping one user's requests at one
 * commit's time each, while other users' transactions keep running beside them on the pool.
 */
export class ReservationBatcher {
  /** the domains with requests queued or a write under way; an idle domain is dropped */
  private readonly domains = new Map<number, Domain>();

  constructor(
    private readonly db: Db,
    private readonly domainOf: (holder: QuotaHolder) => number,
  ) {}

  reserve(
    holder: QuotaHolder,
    amount: number,
    record: ReservationRecord,
  ): Promise<ReservationShortfall | null> {
    const key = this.domainOf(holder);
    let domain = this.domains.get(key);
    if (domain === undefined) {
      domain = { queue: [], isBusy: false };
      this.domains.set(key, domain);
    }
    const queued = domain;
    return new Promise((resolve, reject) => {
      queued.queue.push({ holder, amount, record, resolve, reject });
      if (queued.isBusy) return;
      queued.isBusy = true;
      setImmediate(() => void this.write(key, queued));
    });
  }

  /**
   * Writes the domain's queue, then what was queued meanwhile. On SQLite's main connection a write is
   * synchronous, so nothing queues meanwhile; over a network (or in SQLite's write thread) it is not, and the
   * requests of the turns that pass while one batch is under way go together in the next.
   */
  private async write(key: number, domain: Domain): Promise<void> {
    while (domain.queue.length > 0) {
      const batch = domain.queue;
      domain.queue = [];
      try {
        const shortfalls = await reserveQuotaBatch(this.db, batch);
        for (let index = 0; index < batch.length; index += 1) batch[index].resolve(shortfalls[index]);
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
    domain.isBusy = false;
    this.domains.delete(key);
  }
}
