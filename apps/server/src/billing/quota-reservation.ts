import { NEVER_EXPIRES, TokenStatus, UserStatus, nowSeconds } from '@gatehouse/shared';
import type { Db } from '../db/database';
import { precompile } from './precompiled-query';

/** Whose balance a request draws on: the user's, and the key's unless the key is unlimited. */
export interface QuotaHolder {
  userId: number;
  tokenId: number;
  isUnlimitedToken: boolean;
}

/** Which balance could not cover a reservation (or its holder stopped being usable in the meantime). */
export type ReservationShortfall = 'user' | 'token';

class ReservationRefused extends Error {
  constructor(readonly shortfall: ReservationShortfall) {
    super(shortfall);
  }
}

// Stand-ins for precompiling: distinct from each other and from the constants in the statements.
const USER = -9_000_001;
const TOKEN = -9_000_002;
const AMOUNT = -9_000_003;
const NOW = -9_000_004;

/** `… WHERE quota >= amount`: the conditional UPDATE that can never take a balance below zero. */
const takeFromUser = precompile(
  (db, userId: number, amount: number) =>
    db
      .updateTable('users')
      .set((set) => ({ quota: set('quota', '-', amount) }))
      .where('id', '=', userId)
      .where('status', '=', UserStatus.enabled)
      .where('quota', '>=', amount),
  [USER, AMOUNT],
);

/** The same for an unlimited key: only the user pays, but the key must still be enabled and unexpired. */
const takeFromUserOfUnlimitedKey = precompile(
  (db, userId: number, amount: number, tokenId: number, now: number) =>
    db
      .updateTable('users')
      .set((set) => ({ quota: set('quota', '-', amount) }))
      .where('id', '=', userId)
      .where('status', '=', UserStatus.enabled)
      .where('quota', '>=', amount)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('tokens')
            .select('tokens.id')
            .where('tokens.id', '=', tokenId)
            .where('tokens.status', '=', TokenStatus.enabled)
            .where((where) =>
              where.or([
                where('tokens.expired_time', '=', NEVER_EXPIRES),
                where('tokens.expired_time', '>', now),
              ]),
            ),
        ),
      ),
  [USER, AMOUNT, TOKEN, NOW],
);

const takeFromToken = precompile(
  (db, tokenId: number, amount: number, now: number) =>
    db
      .updateTable('tokens')
      .set((set) => ({ remain_quota: set('remain_quota', '-', amount) }))
      .where('id', '=', tokenId)
      .where('status', '=', TokenStatus.enabled)
      .where('remain_quota', '>=', amount)
      .where((where) =>
        where.or([where('expired_time', '=', NEVER_EXPIRES), where('expired_time', '>', now)]),
      ),
  [TOKEN, AMOUNT, NOW],
);

const giveToUser = precompile(
  (db, userId: number, amount: number) =>
    db
      .updateTable('users')
      .set((set) => ({ quota: set('quota', '+', amount) }))
      .where('id', '=', userId),
  [USER, AMOUNT],
);

const giveToToken = precompile(
  (db, tokenId: number, amount: number) =>
    db
      .updateTable('tokens')
      .set((set) => ({ remain_quota: set('remain_quota', '+', amount) }))
      .where('id', '=', tokenId),
  [TOKEN, AMOUNT],
);

const isOneRow = (result: { numAffectedRows?: bigint }) => Number(result.numAffectedRows ?? 0) === 1;

/**
 * Takes `amount` from the user and, unless unlimited, the key — in one transaction, each with a conditional
 * UPDATE (`… WHERE quota >= amount`), so no balance goes below zero however many requests or instances race.
 * The conditions also require the user and the key to be enabled and the key unexpired right now, so a key
 * disabled a moment ago cannot spend. Answers null when reserved.
 */
export async function reserveQuota(
  db: Db,
  holder: QuotaHolder,
  amount: number,
): Promise<ReservationShortfall | null> {
  if (amount <= 0) return null;
  const now = nowSeconds();
  // One statement is atomic on its own: an unlimited key needs no transaction.
  if (holder.isUnlimitedToken) {
    const result = await db.executeQuery(
      takeFromUserOfUnlimitedKey(db, holder.userId, amount, holder.tokenId, now),
    );
    return isOneRow(result) ? null : 'user';
  }
  // Users before keys in every transaction that touches both, so two transactions never deadlock.
  try {
    await db.transaction().execute(async (trx) => {
      if (!isOneRow(await trx.executeQuery(takeFromUser(db, holder.userId, amount)))) {
        throw new ReservationRefused('user');
      }
      if (!isOneRow(await trx.executeQuery(takeFromToken(db, holder.tokenId, amount, now)))) {
        throw new ReservationRefused('token');
      }
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
  if (holder.isUnlimitedToken) {
    await db.executeQuery(giveToUser(db, holder.userId, amount));
    return;
  }
  await db.transaction().execute(async (trx) => {
    await trx.executeQuery(giveToUser(db, holder.userId, amount));
    await trx.executeQuery(giveToToken(db, holder.tokenId, amount));
  });
}
