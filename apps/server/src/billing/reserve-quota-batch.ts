import type { Insertable } from 'kysely';
import { nowSeconds } from '@gatehouse/shared';
import type { Db } from '../db/database';
import type { QuotaReservationsTable } from '../db/schema';
import { PrecompiledRows } from './precompiled-rows';
import { writeTransaction, type RunStatement } from '../db/direct-statements';
import type { ReservationRequest, ReservationShortfall } from './quota-reservation';
import {
  RESERVATION_FORMAT_VERSION,
  giveToToken,
  giveToUser,
  isOneRow,
  takeFromToken,
  takeFromUser,
  takeFromUserOfUnlimitedKey,
} from './reservation-statements';

const recordInserts = new PrecompiledRows((db, _shape, rows) =>
  db.insertInto('quota_reservations').values(rows as unknown as Array<Insertable<QuotaReservationsTable>>),
);

/** The columns of a record, in the order pushRecordValues writes them. */
const RECORD_COLUMNS = [
  'id',
  'user_id',
  'token_id',
  'is_unlimited_token',
  'amount',
  'node_id',
  'created_at',
  'lease_expires_at',
  'format_version',
];

function pushRecordValues(values: unknown[], request: ReservationRequest, now: number): void {
  const { holder, amount, record } = request;
  values.push(
    record.id,
    holder.userId,
    holder.tokenId,
    holder.isUnlimitedToken ? 1 : 0,
    amount,
    record.nodeId,
    now,
    now + record.leaseSeconds,
    RESERVATION_FORMAT_VERSION,
  );
}

/** What a batch takes from one balance when every reservation of it goes through. */
interface Draw {
  id: number;
  /** for a user paying for an unlimited key: the key, which must still be usable */
  unlimitedTokenId: number | null;
  amount: number;
}

function addDraw(
  draws: Map<string, Draw>,
  key: string,
  id: number,
  unlimitedTokenId: number | null,
  amount: number,
) {
  const draw = draws.get(key);
  if (draw) draw.amount += amount;
  else draws.set(key, { id, unlimitedTokenId, amount });
}

/** The draws by ascending id: a batch of one (the usual case at low load) is not sorted. */
function inLockOrder(draws: Map<string, Draw>): Iterable<Draw> {
  return draws.size < 2 ? draws.values() : [...draws.values()].sort((a, b) => a.id - b.id);
}

/**
 * The usual batch, where every balance covers all its reservations: one conditional UPDATE per user (per user
 * and unlimited key) and per key for the sums, instead of one per request. That all of them go through is
 * exactly when taking the reservations one by one would have let every one through, with the same balances
 * after. When one does not, what the others took is given back (inside the transaction: nobody sees it) and
 * the caller takes them one by one. Answers whether all were taken.
 */
async function takeAllTogether(
  db: Db,
  run: RunStatement,
  requests: readonly ReservationRequest[],
  now: number,
): Promise<boolean> {
  const users = new Map<string, Draw>();
  const tokens = new Map<string, Draw>();
  for (const { holder, amount } of requests) {
    if (amount <= 0) continue;
    if (holder.isUnlimitedToken) {
      addDraw(users, `${holder.userId}/${holder.tokenId}`, holder.userId, holder.tokenId, amount);
    } else {
      addDraw(users, `${holder.userId}`, holder.userId, null, amount);
      addDraw(tokens, `${holder.tokenId}`, holder.tokenId, null, amount);
    }
  }
  const taken: Array<{ draw: Draw; isUser: boolean }> = [];
  const take = async (draw: Draw, isUser: boolean) => {
    const statement = !isUser
      ? takeFromToken(db, draw.id, draw.amount, now)
      : draw.unlimitedTokenId === null
        ? takeFromUser(db, draw.id, draw.amount)
        : takeFromUserOfUnlimitedKey(db, draw.id, draw.amount, draw.unlimitedTokenId, now);
    if (!isOneRow(await run(statement, 1))) return false;
    taken.push({ draw, isUser });
    return true;
  };
  let isAllTaken = true;
  // Users before keys, as everywhere; each in ascending order of id, as the settlements lock them.
  for (const draw of inLockOrder(users)) if (!(isAllTaken = await take(draw, true))) break;
  if (isAllTaken) for (const draw of inLockOrder(tokens)) if (!(isAllTaken = await take(draw, false))) break;
  if (isAllTaken) return true;
  for (const { draw, isUser } of taken) {
    const give = isUser ? giveToUser : giveToToken;
    await run(give(db, draw.id, draw.amount));
  }
  return false;
}

/**
 * Several reservations in one transaction, each taken as reserveQuota takes it (the same conditional
 * UPDATEs, its record written with it): one commit instead of one per request (ReservationBatcher: on SQLite
 * every request of an event-loop turn, on PostgreSQL and MySQL one user's). Mostly every balance covers its part of the
 * batch and the sums are taken at once (takeAllTogether); otherwise one request after another, a reservation
 * the key cannot cover giving back what it took from the user, so nobody ever sees it. The records go in
 * together, last. Answers each request's shortfall, in order; a database error fails them all, with nothing
 * taken. Where writers run at once (PostgreSQL, MySQL) no two transactions wait for each other in a circle: a
 * key's row is only ever locked by a transaction that already holds its user's.
 */
export async function reserveQuotaBatch(
  db: Db,
  requests: readonly ReservationRequest[],
): Promise<Array<ReservationShortfall | null>> {
  const now = nowSeconds();
  return writeTransaction(db, async (trx, run) => {
    const shortfalls: Array<ReservationShortfall | null> = [];
    const values: unknown[] = [];
    let records = 0;
    const isAllTaken = await takeAllTogether(db, run, requests, now);
    for (const request of requests) {
      const { holder, amount } = request;
      if (amount <= 0) {
        shortfalls.push(null);
        continue;
      }
      if (!isAllTaken) {
        const takenFromUser = holder.isUnlimitedToken
          ? takeFromUserOfUnlimitedKey(db, holder.userId, amount, holder.tokenId, now)
          : takeFromUser(db, holder.userId, amount);
        if (!isOneRow(await run(takenFromUser, 1))) {
          shortfalls.push('user');
          continue;
        }
        if (
          !holder.isUnlimitedToken &&
          !isOneRow(await run(takeFromToken(db, holder.tokenId, amount, now), 1))
        ) {
          await run(giveToUser(db, holder.userId, amount));
          shortfalls.push('token');
          continue;
        }
      }
      pushRecordValues(values, request, now);
      records += 1;
      shortfalls.push(null);
    }
    if (records > 0) {
      await recordInserts.execute(trx, 'quota_reservations', RECORD_COLUMNS, values, records, run);
    }
    return shortfalls;
  });
}
