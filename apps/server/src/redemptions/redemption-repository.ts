import { MAX_ROW_ID, REDEMPTION_KEY_LENGTH, RedemptionStatus, type Redemption } from '@gatehouse/shared';
import type { Db } from '../db/database';
import type { Page } from '../db/paging';
import { containsText } from '../db/paging';
import type { RedemptionRow } from '../db/schema';
import { randomText } from '../auth/password';

export function toRedemption(row: RedemptionRow): Redemption {
  return {
    id: row.id,
    user_id: row.user_id,
    name: row.name,
    key: row.key,
    status: row.status,
    quota: Number(row.quota),
    created_time: Number(row.created_time),
    redeemed_time: Number(row.redeemed_time),
    used_user_id: row.used_user_id,
  };
}

export function findRedemptionById(db: Db, id: number): Promise<RedemptionRow | undefined> {
  return db.selectFrom('redemptions').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findRedemptionByKey(db: Db, key: string): Promise<RedemptionRow | undefined> {
  return db.selectFrom('redemptions').selectAll().where('key', '=', key).executeTakeFirst();
}

export function listRedemptions(db: Db, page: Page): Promise<RedemptionRow[]> {
  return db
    .selectFrom('redemptions')
    .selectAll()
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** By id, by name (contains) or by the exact code. */
export function searchRedemptions(db: Db, keyword: string, page: Page): Promise<RedemptionRow[]> {
  // 0 matches no row; so does a number no row can have as id (PostgreSQL and MySQL refuse it as an id).
  const id = /^\d+$/.test(keyword) && Number(keyword) <= MAX_ROW_ID ? Number(keyword) : 0;
  return db
    .selectFrom('redemptions')
    .selectAll()
    .where((where) =>
      where.or([where('id', '=', id), containsText('name', keyword), where('key', '=', keyword)]),
    )
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** Creates `count` codes of one name and quota in one transaction: all of them or none. */
export async function createRedemptions(
  db: Db,
  input: { name: string; quota: number; count: number; userId: number; now: number },
  /** runs in the insert's transaction with the new rows (the audit entries commit with them) */
  onCreated: (transaction: Db, rows: RedemptionRow[]) => Promise<void>,
): Promise<string[]> {
  const keys = new Set<string>();
  while (keys.size < input.count) keys.add(randomText(REDEMPTION_KEY_LENGTH));
  const rows = [...keys].map((key) => ({
    key,
    name: input.name,
    quota: input.quota,
    user_id: input.userId,
    status: RedemptionStatus.unused,
    created_time: input.now,
  }));
  await db.transaction().execute(async (transaction) => {
    await transaction.insertInto('redemptions').values(rows).execute();
    const created = await transaction
      .selectFrom('redemptions')
      .selectAll()
      .where('key', 'in', [...keys])
      .orderBy('id')
      .execute();
    await onCreated(transaction, created);
  });
  return [...keys];
}
