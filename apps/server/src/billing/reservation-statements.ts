import { NEVER_EXPIRES, TokenStatus, UserStatus } from '@gatehouse/shared';
import { precompile } from './precompiled-query';

// The reservation's statements (quota-reservation.ts, reserve-quota-batch.ts), compiled once per database.
// Stand-ins for precompiling: distinct from each other and from the constants in the statements.
const USER = -9_000_001;
const TOKEN = -9_000_002;
const AMOUNT = -9_000_003;
const NOW = -9_000_004;

/** `… WHERE quota >= amount`: the conditional UPDATE that can never take a balance below zero. */
export const takeFromUser = precompile(
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
export const takeFromUserOfUnlimitedKey = precompile(
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

export const takeFromToken = precompile(
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

export const giveToUser = precompile(
  (db, userId: number, amount: number) =>
    db
      .updateTable('users')
      .set((set) => ({ quota: set('quota', '+', amount) }))
      .where('id', '=', userId),
  [USER, AMOUNT],
);

export const giveToToken = precompile(
  (db, tokenId: number, amount: number) =>
    db
      .updateTable('tokens')
      .set((set) => ({ remain_quota: set('remain_quota', '+', amount) }))
      .where('id', '=', tokenId),
  [TOKEN, AMOUNT],
);

export const isOneRow = (result: { numAffectedRows?: bigint }) => Number(result.numAffectedRows ?? 0) === 1;

/** The layout of quota_reservations rows this version writes and understands. */
export const RESERVATION_FORMAT_VERSION = 1;

export const writeRecord = precompile(
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

export const deleteRecord = precompile(
  (db, id: string) => db.deleteFrom('quota_reservations').where('id', '=', id),
  ['~id'],
);
