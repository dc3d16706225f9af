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

/** The durable record of a reservation: which request holds it, and which server owns that request. */
export interface ReservationRecord {
  /** the request's id */
  id: string;
  nodeId: string;
  /** seconds from now until recovery may release it, unless the node renews it */
  leaseSeconds: number;
}

/** The layout of quota_reservations rows this version writes and understands. */
export const RESERVATION_FORMAT_VERSION = 1;

const writeRecord = precompile(
  (
    db,
    id: string,
    userId: number,
    tokenId: number,
    isUnlimited: number,
    amount: number,
    nodeId: string,
    now: number,
    leaseExpiresAt: number,
  ) =>
    db.insertInto('quota_reservations').values({
      id,
      user_id: userId,
      token_id: tokenId,
      is_unlimited_token: isUnlimited,
      amount,
      node_id: nodeId,
      created_at: now,
      lease_expires_at: leaseExpiresAt,
      format_version: RESERVATION_FORMAT_VERSION,
    }),
  ['~id', USER, TOKEN, -9_000_005, AMOUNT, '~node', NOW, -9_000_006],
);

const deleteRecord = precompile(
  (db, id: string) => db.deleteFrom('quota_reservations').where('id', '=', id),
  ['~id'],
);

/**
 * Takes `amount` from the user and, unless unlimited, the key — in one transaction, each with a conditional
 * UPDATE (`… WHERE quota >= amount`), so no balance goes below zero however many requests or instances race.
 * The conditions also require the user and the key to be enabled and the key unexpired right now, so a key
 * disabled a moment ago cannot spend. With a record, the same transaction writes it, so a reservation taken
 * is always one that recovery can find and give back. Answers null when reserved.
 */
export async function reserveQuota(
  db: Db,
  holder: QuotaHolder,
  amount: number,
  record?: ReservationRecord,
): Promise<ReservationShortfall | null> {
  if (amount <= 0) return null;
  const now = nowSeconds();
  // One statement is atomic on its own: an unlimited key without a record needs no transaction.
  if (holder.isUnlimitedToken && !record) {
    const result = await db.executeQuery(
      takeFromUserOfUnlimitedKey(db, holder.userId, amount, holder.tokenId, now),
    );
    return isOneRow(result) ? null : 'user';
  }
  // Users before keys in every transaction that touches both, so two transactions never deadlock.
  try {
    await db.transaction().execute(async (trx) => {
      const takenFromUser = holder.isUnlimitedToken
        ? takeFromUserOfUnlimitedKey(db, holder.userId, amount, holder.tokenId, now)
        : takeFromUser(db, holder.userId, amount);
      if (!isOneRow(await trx.executeQuery(takenFromUser))) throw new ReservationRefused('user');
      if (
        !holder.isUnlimitedToken &&
        !isOneRow(await trx.executeQuery(takeFromToken(db, holder.tokenId, amount, now)))
      ) {
        throw new ReservationRefused('token');
      }
      if (record) {
        await trx.executeQuery(recordFor(db, holder, amount, record, now));
      }
    });
    return null;
  } catch (error) {
    if (error instanceof ReservationRefused) return error.shortfall;
    throw error;
  }
}

/** The durable record of a reservation of `amount` for the holder, leased from now. */
function recordFor(db: Db, holder: QuotaHolder, amount: number, record: ReservationRecord, now: number) {
  return writeRecord(
    db,
    record.id,
    holder.userId,
    holder.tokenId,
    holder.isUnlimitedToken ? 1 : 0,
    amount,
    record.nodeId,
    now,
    now + record.leaseSeconds,
  );
}

/** One reservation of a batch: what reserveQuota takes. */
export interface ReservationRequest {
  holder: QuotaHolder;
  amount: number;
  record: ReservationRecord;
}

/**
 * Several reservations in one transaction, each taken as reserveQuota takes it (the same conditional
 * UPDATEs, its record written with it), for a database with one writer (SQLite), where transactions run one
 * after another anyway: one commit instead of one per request. A reservation the key cannot cover gives back
 * what it took from the user inside the transaction, so nobody ever sees it. Answers each request's
 * shortfall, in order; a database error fails them all, with nothing taken.
 */
export async function reserveQuotaBatch(
  db: Db,
  requests: readonly ReservationRequest[],
): Promise<Array<ReservationShortfall | null>> {
  const now = nowSeconds();
  return db.transaction().execute(async (trx) => {
    const shortfalls: Array<ReservationShortfall | null> = [];
    for (const { holder, amount, record } of requests) {
      if (amount <= 0) {
        shortfalls.push(null);
        continue;
      }
      const takenFromUser = holder.isUnlimitedToken
        ? takeFromUserOfUnlimitedKey(db, holder.userId, amount, holder.tokenId, now)
        : takeFromUser(db, holder.userId, amount);
      if (!isOneRow(await trx.executeQuery(takenFromUser))) {
        shortfalls.push('user');
        continue;
      }
      if (
        !holder.isUnlimitedToken &&
        !isOneRow(await trx.executeQuery(takeFromToken(db, holder.tokenId, amount, now)))
      ) {
        await trx.executeQuery(giveToUser(db, holder.userId, amount));
        shortfalls.push('token');
        continue;
      }
      await trx.executeQuery(recordFor(db, holder, amount, record, now));
      shortfalls.push(null);
    }
    return shortfalls;
  });
}

/**
 * Gives a whole reservation back (the upstream call failed). With its record's id, the record goes in the
 * same transaction, and nothing is given when it is already gone (recovery released it first), so a
 * reservation is never returned twice.
 */
export async function refundQuota(
  db: Db,
  holder: QuotaHolder,
  amount: number,
  reservationId?: string,
): Promise<void> {
  if (amount <= 0) return;
  if (holder.isUnlimitedToken && reservationId === undefined) {
    await db.executeQuery(giveToUser(db, holder.userId, amount));
    return;
  }
  try {
    await db.transaction().execute(async (trx) => {
      await trx.executeQuery(giveToUser(db, holder.userId, amount));
      if (!holder.isUnlimitedToken) await trx.executeQuery(giveToToken(db, holder.tokenId, amount));
      // The record last: users, keys, then records, in every transaction that touches them (no deadlock).
      if (reservationId !== undefined && !isOneRow(await trx.executeQuery(deleteRecord(db, reservationId)))) {
        throw new AlreadyReleased();
      }
    });
  } catch (error) {
    if (!(error instanceof AlreadyReleased)) throw error;
  }
}

/** Rolls a refund back: recovery gave the reservation back first. */
class AlreadyReleased extends Error {}
