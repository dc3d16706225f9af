import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { LogType, nowSeconds } from '@gatehouse/shared';
import type { Selectable, Transaction } from 'kysely';
import type { Db } from '../db/database';
import type { Database, QuotaReservationsTable } from '../db/schema';
import { RESERVATION_FORMAT_VERSION } from './quota-reservation';

/**
 * Who owns a reservation record: `host/pid/boot`. On the same host, a record whose process is gone (or whose
 * pid is now this process, started again) is released at once; one from another host waits for its lease.
 */
export function createNodeId(): string {
  return `${hostname()}/${process.pid}/${randomBytes(4).toString('hex')}`;
}

/** A server that never renews its reservations (it crashed) holds them at most this long. */
export const LEASE_SECONDS = 300;
/** How often a server extends the leases of its own reservations (its long streams). */
export const LEASE_RENEWAL_MS = 60_000;
/** How often any server looks for reservations whose lease ran out. */
export const RECOVERY_SWEEP_MS = 30_000;

/** The database holds reservation records this version cannot read: starting would mean guessing. */
export class ReservationRecordsError extends Error {}

export const RELEASE_NOTE =
  'reservation released after a crash or database outage: the answer was not delivered complete';

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True when the record's owner is a process of this host that no longer runs. */
function isOwnerGoneHere(nodeId: string, ownNodeId: string): boolean {
  const [host, pidText] = nodeId.split('/');
  const [ownHost, ownPid] = ownNodeId.split('/');
  if (host !== ownHost || nodeId === ownNodeId) return false;
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  return pidText === ownPid || !isProcessAlive(pid);
}

function describeCorruption(row: {
  id: string;
  amount: number | string;
  format_version: number;
}): string | null {
  if (Number(row.format_version) > RESERVATION_FORMAT_VERSION) {
    return `format ${row.format_version}, newer than this version understands (${RESERVATION_FORMAT_VERSION})`;
  }
  const amount = Number(row.amount);
  if (!Number.isSafeInteger(amount) || amount <= 0) return `amount ${String(row.amount)}`;
  return null;
}

/**
 * Gives back every reservation whose request cannot finish any more — its lease ran out, or its server on this
 * host is gone — to the user and the key, and writes a consumption log row with quota 0 that says so. Such a
 * request never had its answer's last byte sent (that waits for the settlement), so nothing delivered is left
 * unbilled by releasing it. This server's own records count too once their lease ran out, except those of the
 * requests it is still running (`isRunningHere`): a finished request whose refund or settlement could not be
 * written during an outage stops being renewed, so it never outlives its lease. Each record is deleted by the
 * transaction that refunds it, only while it still exists, so a reservation settled or released by another
 * server meanwhile is never returned twice; that transaction also leaves a row in quota_releases, so a late
 * settlement knows the amount is back. Refuses (ReservationRecordsError) when a record is from a newer
 * version or makes no sense.
 */
export async function releaseAbandonedReservations(
  db: Db,
  ownNodeId: string,
  isRunningHere: (id: string) => boolean = () => false,
): Promise<number> {
  const now = nowSeconds();
  // This server's records within their lease are never abandoned: not even read.
  const rows = await db
    .selectFrom('quota_reservations')
    .selectAll()
    .where((where) => where.or([where('node_id', '!=', ownNodeId), where('lease_expires_at', '<', now)]))
    .execute();
  const abandoned = rows.filter((row) =>
    row.node_id === ownNodeId
      ? Number(row.lease_expires_at) < now && !isRunningHere(row.id)
      : Number(row.lease_expires_at) < now || isOwnerGoneHere(row.node_id, ownNodeId),
  );
  const corrupt = abandoned.flatMap((row) => {
    const problem = describeCorruption(row);
    return problem ? [`${row.id} (${problem})`] : [];
  });
  if (corrupt.length > 0) {
    throw new ReservationRecordsError(
      `quota_reservations holds records this version cannot settle: ${corrupt.slice(0, 5).join(', ')}` +
        `${corrupt.length > 5 ? ` and ${corrupt.length - 5} more` : ''}. Run the version that wrote them, or ` +
        'check the table by hand; nothing was released.',
    );
  }
  let released = 0;
  for (const row of abandoned) {
    const amount = Number(row.amount);
    const isReleased = await db
      .transaction()
      .execute(async (trx) => {
        await releaseOne(trx, row, amount, now);
        return true;
      })
      .catch((error: unknown) => {
        if (error instanceof SettledMeanwhile) return false;
        throw error;
      });
    if (isReleased) released += 1;
  }
  return released;
}

/** Rolls a release back: the record went meanwhile (its request settled, or another server released it). */
class SettledMeanwhile extends Error {}

type ReservationRow = Selectable<QuotaReservationsTable>;

/** Users, keys, the log row, the record, then its release mark: the lock order of every transaction that touches them. */
async function releaseOne(trx: Transaction<Database>, row: ReservationRow, amount: number, now: number) {
  await trx
    .updateTable('users')
    .set((set) => ({ quota: set('quota', '+', amount) }))
    .where('id', '=', row.user_id)
    .execute();
  if (!row.is_unlimited_token) {
    await trx
      .updateTable('tokens')
      .set((set) => ({ remain_quota: set('remain_quota', '+', amount) }))
      .where('id', '=', row.token_id)
      .execute();
  }
  const user = await trx
    .selectFrom('users')
    .select('username')
    .where('id', '=', row.user_id)
    .executeTakeFirst();
  const token = await trx
    .selectFrom('tokens')
    .select('name')
    .where('id', '=', row.token_id)
    .executeTakeFirst();
  await trx
    .insertInto('logs')
    .values({
      user_id: row.user_id,
      username: user?.username ?? '',
      token_name: token?.name ?? '',
      type: LogType.consume,
      quota: 0,
      request_id: row.id,
      created_at: now,
      content: `${RELEASE_NOTE} (${amount} quota given back)`,
    })
    .execute();
  const deleted = await trx
    .deleteFrom('quota_reservations')
    .where('id', '=', row.id)
    .where('node_id', '=', row.node_id)
    .executeTakeFirst();
  if (Number(deleted.numDeletedRows) !== 1) throw new SettledMeanwhile();
  await trx.insertInto('quota_releases').values({ id: row.id, released_at: now }).execute();
}

/** How many record ids one statement names. */
const IDS_PER_STATEMENT = 500;

/**
 * Extends the leases of this server's reservations whose requests are still running (`ids`); a record of a
 * request that finished without its settlement written is left to run out.
 */
export async function renewLeases(db: Db, nodeId: string, ids: readonly string[]): Promise<void> {
  const leaseExpiresAt = nowSeconds() + LEASE_SECONDS;
  for (let start = 0; start < ids.length; start += IDS_PER_STATEMENT) {
    await db
      .updateTable('quota_reservations')
      .set({ lease_expires_at: leaseExpiresAt })
      .where('node_id', '=', nodeId)
      .where('id', 'in', ids.slice(start, start + IDS_PER_STATEMENT))
      .execute();
  }
}

/** How long a release mark is kept: longer than any settlement waits for its database. */
export const RELEASE_MARK_SECONDS = 86_400;

/** Forgets release marks older than RELEASE_MARK_SECONDS. */
export async function pruneReleaseMarks(db: Db): Promise<void> {
  await db
    .deleteFrom('quota_releases')
    .where('released_at', '<', nowSeconds() - RELEASE_MARK_SECONDS)
    .execute();
}

/** Which of these record ids recovery released (the others, gone too, were settled). */
export async function findReleased(db: Db, ids: readonly string[]): Promise<Set<string>> {
  const released = new Set<string>();
  for (let start = 0; start < ids.length; start += IDS_PER_STATEMENT) {
    const rows = await db
      .selectFrom('quota_releases')
      .select('id')
      .where('id', 'in', ids.slice(start, start + IDS_PER_STATEMENT))
      .execute();
    for (const row of rows) released.add(row.id);
  }
  return released;
}
