import type { FastifyBaseLogger } from 'fastify';
import { SqliteAdapter, type Transaction } from 'kysely';
import { LogType } from '@gatehouse/shared';
import type { Db } from '../db/database';
import type { Database, NewLogRow } from '../db/schema';
import type { QuotaHolder } from './quota-reservation';

type Trx = Transaction<Database>;

/** One finished request: what was reserved for it and what it costs. */
export interface Settlement {
  holder: QuotaHolder;
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

/** Hot-path writes are grouped: a crash loses at most this much of counters, never a reservation. */
const FLUSH_INTERVAL_MS = 1000;
const MAX_BATCH = 500;
const LOG_ROWS_PER_INSERT = 100;

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
 * Settles finished requests against the reservations they made: charges or refunds the difference, adds
 * used quota and request counts to user, key and channel, and writes the consumption logs — batched, in one
 * transaction per second. When a balance cannot cover the part of a cost above its reservation (possible only
 * without max_tokens), it is taken down to zero, never below, and the logs record what was really charged,
 * so the logs always add up to the change in balances.
 */
export class SettlementLedger {
  private queue: Settlement[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;
  /** settlements announced but not recorded yet (their tokens are still being counted) */
  private readonly expected = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly quotaRemindThreshold: () => number,
    private readonly onQuotaCrossing: (crossing: QuotaCrossing) => void,
  ) {
    this.timer = setInterval(() => void this.write(), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  record(settlement: Settlement): void {
    this.queue.push(settlement);
    if (this.queue.length >= MAX_BATCH) void this.write();
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
    clearInterval(this.timer);
    await this.flush();
  }

  private async flushQueued(): Promise<void> {
    const batch = this.queue;
    if (batch.length === 0) return;
    this.queue = [];
    let charged: number[];
    try {
      charged = await this.db.transaction().execute((trx) => this.apply(trx, batch));
    } catch (error) {
      // Nothing was written: keep the batch for the next flush.
      this.queue = batch.concat(this.queue);
      this.log.error({ err: error }, 'settling relay requests failed; will retry');
      return;
    }
    await this.findCrossings(batch, charged).catch((error: unknown) =>
      this.log.error({ err: error }, 'quota reminder check failed'),
    );
  }

  private async apply(trx: Trx, batch: Settlement[]): Promise<number[]> {
    const charged = batch.map((settlement) => settlement.cost);
    const all = batch.map((_, index) => index);
    // Users, then keys, then channels: the same lock order as the reservation.
    const byUser = [...groupBy(all, (index) => batch[index].holder.userId)].sort((a, b) => a[0] - b[0]);
    for (const [userId, indexes] of byUser) {
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
      await trx
        .updateTable('users')
        .set((set) => ({
          used_quota: set('used_quota', '+', used),
          request_count: set('request_count', '+', indexes.length),
        }))
        .where('id', '=', userId)
        .execute();
    }
    const byToken = [...groupBy(all, (index) => batch[index].holder.tokenId)].sort((a, b) => a[0] - b[0]);
    for (const [tokenId, indexes] of byToken) {
      if (!batch[indexes[0]].holder.isUnlimitedToken) {
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
      const used = indexes.reduce((sum, index) => sum + charged[index], 0);
      await trx
        .updateTable('tokens')
        .set((set) => ({
          used_quota: set('used_quota', '+', used),
          request_count: set('request_count', '+', indexes.length),
          accessed_time: Math.max(...indexes.map((index) => batch[index].createdAt)),
        }))
        .where('id', '=', tokenId)
        .execute();
    }
    const byChannel = [...groupBy(all, (index) => batch[index].channelId)].sort((a, b) => a[0] - b[0]);
    for (const [channelId, indexes] of byChannel) {
      const used = indexes.reduce((sum, index) => sum + charged[index], 0);
      await trx
        .updateTable('channels')
        .set((set) => ({
          used_quota: set('used_quota', '+', used),
          request_count: set('request_count', '+', indexes.length),
        }))
        .where('id', '=', channelId)
        .execute();
    }
    const logs = all
      .filter((index) => batch[index].log !== null)
      .map((index) => ({
        ...batch[index].log,
        type: LogType.consume,
        quota: charged[index],
        created_at: batch[index].createdAt,
      }));
    for (let start = 0; start < logs.length; start += LOG_ROWS_PER_INSERT) {
      await trx
        .insertInto('logs')
        .values(logs.slice(start, start + LOG_ROWS_PER_INSERT))
        .execute();
    }
    return charged;
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
    // Both tables spell the update alike; Kysely's types cannot follow a column chosen at run time.
    const update = () => trx.updateTable(table as 'users').where('id', '=', id);
    const balance = column as 'quota';
    if (difference < 0) {
      await update()
        .set((set) => ({ [balance]: set(balance, '+', -difference) }))
        .execute();
      return 0;
    }
    const whole = await update()
      .set((set) => ({ [balance]: set(balance, '-', difference) }))
      .where(balance, '>=', difference)
      .executeTakeFirst();
    if (Number(whole.numUpdatedRows) === 1) return 0;
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
