import type { Db } from '../db/database';
import { precompile } from './precompiled-query';

/**
 * The settlement's statements, compiled once per database (billing/precompiled-query.ts): with group commit a
 * batch often holds one or two requests, so building each statement anew would cost more than running it.
 */
const ID = -9_100_001;
const AMOUNT = -9_100_002;
const COUNT = -9_100_003;
const TIME = -9_100_004;

/**
 * The usual settlement of one user in one statement: the balance moves by the difference to the reservations
 * (a refund when negative) and the usage grows, when the balance covers the difference.
 */
function buildSettleUserWhole(db: Db, id: number, difference: number, used: number, requests: number) {
  return db
    .updateTable('users')
    .set((set) => ({
      quota: set('quota', '-', difference),
      used_quota: set('used_quota', '+', used),
      request_count: set('request_count', '+', requests),
    }))
    .where('id', '=', id)
    .where('quota', '>=', difference);
}

export const settleUserWhole = precompile(buildSettleUserWhole, [ID, AMOUNT, -9_100_005, COUNT]);

/**
 * The same, answering the balance it leaves, which the quota reminder's check then needs not read again. Not
 * on MySQL, which has no UPDATE … RETURNING.
 */
export const settleUserWholeReturningQuota = precompile(
  (db, id: number, difference: number, used: number, requests: number) =>
    buildSettleUserWhole(db, id, difference, used, requests).returning('quota'),
  [ID, AMOUNT, -9_100_005, COUNT],
);

/** The same for a limited key. */
export const settleTokenWhole = precompile(
  (db, id: number, difference: number, used: number, requests: number, accessedTime: number) =>
    db
      .updateTable('tokens')
      .set((set) => ({
        remain_quota: set('remain_quota', '-', difference),
        used_quota: set('used_quota', '+', used),
        request_count: set('request_count', '+', requests),
        accessed_time: accessedTime,
      }))
      .where('id', '=', id)
      .where('remain_quota', '>=', difference),
  [ID, AMOUNT, -9_100_005, COUNT, TIME],
);

export const addToUserBalance = precompile(
  (db, id: number, amount: number) =>
    db
      .updateTable('users')
      .set((set) => ({ quota: set('quota', '+', amount) }))
      .where('id', '=', id),
  [ID, AMOUNT],
);

/** Takes `amount` only when the balance covers it. */
export const takeWholeFromUser = precompile(
  (db, id: number, amount: number) =>
    db
      .updateTable('users')
      .set((set) => ({ quota: set('quota', '-', amount) }))
      .where('id', '=', id)
      .where('quota', '>=', amount),
  [ID, AMOUNT],
);

export const addToTokenBalance = precompile(
  (db, id: number, amount: number) =>
    db
      .updateTable('tokens')
      .set((set) => ({ remain_quota: set('remain_quota', '+', amount) }))
      .where('id', '=', id),
  [ID, AMOUNT],
);

export const takeWholeFromToken = precompile(
  (db, id: number, amount: number) =>
    db
      .updateTable('tokens')
      .set((set) => ({ remain_quota: set('remain_quota', '-', amount) }))
      .where('id', '=', id)
      .where('remain_quota', '>=', amount),
  [ID, AMOUNT],
);

export const addUserUsage = precompile(
  (db, id: number, used: number, requests: number) =>
    db
      .updateTable('users')
      .set((set) => ({
        used_quota: set('used_quota', '+', used),
        request_count: set('request_count', '+', requests),
      }))
      .where('id', '=', id),
  [ID, AMOUNT, COUNT],
);

export const addTokenUsage = precompile(
  (db, id: number, used: number, requests: number, accessedTime: number) =>
    db
      .updateTable('tokens')
      .set((set) => ({
        used_quota: set('used_quota', '+', used),
        request_count: set('request_count', '+', requests),
        accessed_time: accessedTime,
      }))
      .where('id', '=', id),
  [ID, AMOUNT, COUNT, TIME],
);

export const addChannelUsage = precompile(
  (db, id: number, used: number, requests: number) =>
    db
      .updateTable('channels')
      .set((set) => ({
        used_quota: set('used_quota', '+', used),
        request_count: set('request_count', '+', requests),
      }))
      .where('id', '=', id),
  [ID, AMOUNT, COUNT],
);

/** The balance and address of one user whose balance a batch lowered (the quota reminder's check). */
export const readUserForReminder = precompile(
  (db, id: number) =>
    db.selectFrom('users').select(['id', 'username', 'email', 'quota']).where('id', '=', id),
  [ID],
);
