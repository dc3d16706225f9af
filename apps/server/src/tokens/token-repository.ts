import { TOKEN_KEY_LENGTH, parseModelLimits, type Token, type TokenOrder } from '@gatehouse/shared';
import { readLimitFields } from '../limits/limit-fields';
import type { Insertable } from 'kysely';
import type { Db } from '../db/database';
import type { Page } from '../db/paging';
import { containsText } from '../db/paging';
import type { TokenRow, TokensTable } from '../db/schema';
import { randomText } from '../auth/password';

/** The key as the API answers it: the stored key without `sk-`, flags as booleans, quotas as numbers. */
export function toToken(row: TokenRow): Token {
  return {
    id: row.id,
    user_id: row.user_id,
    name: row.name,
    key: row.key,
    status: row.status,
    used_quota: Number(row.used_quota),
    remain_quota: Number(row.remain_quota),
    unlimited_quota: row.unlimited_quota === 1,
    request_count: row.request_count,
    created_time: Number(row.created_time),
    accessed_time: Number(row.accessed_time),
    expired_time: Number(row.expired_time),
    models: row.models,
    subnet: row.subnet,
    ...readLimitFields(row),
    model_limits: parseModelLimits(row.model_limits),
  };
}

/**
 * Every lookup takes the owner: a key of another user is indistinguishable from one that does not exist.
 */
export function findOwnedToken(db: Db, userId: number, id: number): Promise<TokenRow | undefined> {
  return db
    .selectFrom('tokens')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export function listTokens(db: Db, userId: number, order: TokenOrder, page: Page): Promise<TokenRow[]> {
  let query = db.selectFrom('tokens').selectAll().where('user_id', '=', userId);
  if (order !== '') query = query.orderBy(order, 'desc');
  return query.orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
}

/** By name (contains) or by the exact key, with or without `sk-` (the console pastes a key it failed to copy). */
export function searchTokens(db: Db, userId: number, keyword: string, page: Page): Promise<TokenRow[]> {
  const key = keyword.replace(/^sk-/, '');
  return db
    .selectFrom('tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .where((where) => where.or([containsText('name', keyword), where('key', '=', key)]))
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export type NewToken = Omit<Insertable<TokensTable>, 'key' | 'id'>;

/** Inserts a key with a fresh 48-character random secret; a (vanishingly rare) collision draws again. */
export async function insertToken(db: Db, token: NewToken): Promise<TokenRow> {
  for (let attempt = 1; ; attempt += 1) {
    const key = randomText(TOKEN_KEY_LENGTH);
    try {
      await db
        .insertInto('tokens')
        .values({ ...token, key })
        .execute();
    } catch (error) {
      if (attempt < 3 && /unique|duplicate/i.test(String(error))) continue;
      throw error;
    }
    return db.selectFrom('tokens').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
  }
}
