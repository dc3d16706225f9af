import { nowSeconds } from '@gatehouse/shared';
import type { Db } from '../db/database';
import { writeTransaction } from '../db/direct-statements';
import {
  deleteRecord,
  giveToToken,
  giveToUser,
  isOneRow,
  takeFromToken,
  takeFromUser,
  takeFromUserOfUnlimitedKey,
  writeRecord,
} from './reservation-statements';

export { RESERVATION_FORMAT_VERSION } from './reservation-statements';

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

/** The durable record of a reservation: which request holds it, and which server owns that request. */
export interface ReservationRecord {
  /** the request's id */
  id: string;
  nodeId: string;
  /** seconds from now until recovery may release it, unless the node renews it */
  leaseSeconds: number;
}

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
    await writeTransaction(db, async (_trx, run) => {
      const takenFromUser = holder.isUnlimitedToken
        ? takeFromUserOfUnlimitedKey(db, holder.userId, amount, holder.tokenId, now)
        : takeFromUser(db, holder.userId, amount);
      if (!isOneRow(await run(takenFromUser, 1))) throw new ReservationRefused('user');
      if (
        !holder.isUnlimitedToken &&
        !isOneRow(await run(takeFromToken(db, holder.tokenId, amount, now), 1))
      ) {
        throw new ReservationRefused('token');
      }
      if (record) {
        await run(recordFor(db, holder, amount, record, now));
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
    await writeTransaction(db, async (_trx, run) => {
      await run(giveToUser(db, holder.userId, amount));
      if (!holder.isUnlimitedToken) await run(giveToToken(db, holder.tokenId, amount));
      // The record last: users, keys, then records, in every transaction that touches them (no deadlock).
      if (reservationId !== undefined && !isOneRow(await run(deleteRecord(db, reservationId), 1))) {
        throw new AlreadyReleased();
      }
    });
  } catch (error) {
    if (!(error instanceof AlreadyReleased)) throw error;
  }
}

/** Rolls a refund back: recovery gave the reservation back first. */
class AlreadyReleased extends Error {}
