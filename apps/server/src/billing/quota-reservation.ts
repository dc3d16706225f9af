import { TokenStatus, UserStatus } from '@gatehouse/shared';
import type { Db } from '../db/database';

/** Whose balance a request draws on: the user's, and the key's unless the key is unlimited. */
export interface QuotaHolder {
  userId: number;
  tokenId: number;
  isUnlimitedToken: boolean;
}

/** Which balance could not cover a reservation (or the holder was disabled in the meantime). */
export type ReservationShortfall = 'user' | 'token';

class ReservationRefused extends Error {
  constructor(readonly shortfall: ReservationShortfall) {
    super(shortfall);
  }
}

/**
 * Takes `amount` from the user and the key in one transaction, each with a conditional UPDATE
 * (`… WHERE quota >= amount`), so no balance goes below zero however many requests or instances race.
 * The conditions also require the user and the key to still be enabled. Answers null when reserved.
 */
export async function reserveQuota(
  db: Db,
  holder: QuotaHolder,
  amount: number,
): Promise<ReservationShortfall | null> {
  if (amount <= 0) return null;
  const takeFromUser = (executor: Db) =>
    executor
      .updateTable('users')
      .set((set) => ({ quota: set('quota', '-', amount) }))
      .where('id', '=', holder.userId)
      .where('status', '=', UserStatus.enabled)
      .where('quota', '>=', amount)
      .executeTakeFirst();
  // One statement is atomic on its own: an unlimited key needs no transaction.
  if (holder.isUnlimitedToken) {
    const result = await takeFromUser(db);
    return Number(result.numUpdatedRows) === 1 ? null : 'user';
  }
  // Users before keys, in every transaction that touches both, so two transactions never wait on each other.
  try {
    await db.transaction().execute(async (trx) => {
      const user = await takeFromUser(trx);
      if (Number(user.numUpdatedRows) !== 1) throw new ReservationRefused('user');
      const token = await trx
        .updateTable('tokens')
        .set((set) => ({ remain_quota: set('remain_quota', '-', amount) }))
        .where('id', '=', holder.tokenId)
        .where('status', '=', TokenStatus.enabled)
        .where('remain_quota', '>=', amount)
        .executeTakeFirst();
      if (Number(token.numUpdatedRows) !== 1) throw new ReservationRefused('token');
    });
    return null;
  } catch (error) {
    if (error instanceof ReservationRefused) return error.shortfall;
    throw error;
  }
}

/** Gives a whole reservation back (the upstream call failed). */
export async function refundQuota(db: Db, holder: QuotaHolder, amount: number): Promise<void> {
  if (amount <= 0) return;
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set((set) => ({ quota: set('quota', '+', amount) }))
      .where('id', '=', holder.userId)
      .execute();
    if (!holder.isUnlimitedToken) {
      await trx
        .updateTable('tokens')
        .set((set) => ({ remain_quota: set('remain_quota', '+', amount) }))
        .where('id', '=', holder.tokenId)
        .execute();
    }
  });
}
