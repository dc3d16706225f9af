import type { Db } from '../db/database';
import type { StoredResponsesTable } from '../db/schema';

export type StoredResponseRow = StoredResponsesTable;

export async function insertStoredResponse(db: Db, row: StoredResponseRow): Promise<void> {
  await db.insertInto('stored_responses').values(row).execute();
}

/** The user's response by id, unless it is older than `notBefore` (epoch seconds): null otherwise. */
export async function findStoredResponse(
  db: Db,
  id: string,
  userId: number,
  notBefore: number,
): Promise<StoredResponseRow | null> {
  const row = await db
    .selectFrom('stored_responses')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('created_at', '>=', notBefore)
    .executeTakeFirst();
  return row ?? null;
}

/** Deletes the user's response; answers whether there was one. */
export async function deleteStoredResponse(db: Db, id: string, userId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('stored_responses')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Deletes up to `batchSize` responses created before `before` (epoch seconds) and answers how many. Ids are
 * selected first because MySQL and PostgreSQL spell a limited delete differently; small batches keep each
 * statement's lock short.
 */
export async function deleteStoredResponsesBefore(
  db: Db,
  before: number,
  batchSize: number,
): Promise<number> {
  const rows = await db
    .selectFrom('stored_responses')
    .select('id')
    .where('created_at', '<', before)
    .limit(batchSize)
    .execute();
  if (rows.length === 0) return 0;
  await db
    .deleteFrom('stored_responses')
    .where(
      'id',
      'in',
      rows.map((row) => row.id),
    )
    .execute();
  return rows.length;
}
