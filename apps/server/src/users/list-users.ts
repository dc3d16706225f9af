import { MAX_ROW_ID, type User, type UserListOrder } from '@gatehouse/shared';
import type { Db } from '../db/database';
import { containsText, MAX_PAGE_SIZE, type Page } from '../db/paging';
import { toPublicUser } from './user-repository';

const orderColumns = {
  '': 'id',
  id: 'id',
  quota: 'quota',
  used_quota: 'used_quota',
  request_count: 'request_count',
} as const satisfies Record<UserListOrder, string>;

/** One page of users, largest first by the chosen column (newest first by default); ties by id. */
export async function listUsers(db: Db, page: Page, order: UserListOrder): Promise<User[]> {
  const rows = await db
    .selectFrom('users')
    .selectAll()
    .orderBy(orderColumns[order], 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map(toPublicUser);
}

/** Users whose id equals the keyword, or whose username, display name or e-mail contains it. */
export async function searchUsers(db: Db, keyword: string): Promise<User[]> {
  // A number no row can have as id is searched as text only (PostgreSQL and MySQL refuse it as an id).
  const id = /^\d+$/.test(keyword) && Number(keyword) <= MAX_ROW_ID ? Number(keyword) : null;
  const rows = await db
    .selectFrom('users')
    .selectAll()
    .where((where) =>
      where.or([
        ...(id !== null ? [where('id', '=', id)] : []),
        containsText('username', keyword),
        containsText('display_name', keyword),
        containsText('email', keyword),
      ]),
    )
    .orderBy('id', 'desc')
    .limit(MAX_PAGE_SIZE)
    .execute();
  return rows.map(toPublicUser);
}
