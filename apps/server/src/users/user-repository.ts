import type { User } from '@gatehouse/shared';
import type { Db } from '../db/database';
import type { NewUserRow, UserRow } from '../db/schema';
import { randomText } from '../auth/password';
import { readLimitFields } from '../limits/limit-fields';

/** The user as the API answers it: never the password hash or the access token. */
export function toPublicUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    display_name: row.display_name,
    email: row.email,
    role: row.role,
    status: row.status,
    group: row.group,
    quota: Number(row.quota),
    used_quota: Number(row.used_quota),
    request_count: row.request_count,
    github_id: row.github_id,
    wechat_id: row.wechat_id,
    lark_id: row.lark_id,
    oidc_id: row.oidc_id,
    aff_code: row.aff_code,
    inviter_id: row.inviter_id,
    created_at: Number(row.created_at),
    ...readLimitFields(row),
    two_factor_enabled: Boolean(row.two_factor_enabled),
  };
}

export function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
}

/**
 * The accounts a login name can mean: the one with that username, then the ones with that e-mail address.
 * Usernames may hold '@', so a name can be one account's username and another's address; the password decides.
 */
export function findUsersByLogin(db: Db, login: string): Promise<UserRow[]> {
  return db
    .selectFrom('users')
    .selectAll()
    .where((where) =>
      where.or([
        where('username', '=', login),
        where.and([where('email', '=', login), where('email', '!=', '')]),
      ]),
    )
    .orderBy((order) => order.case().when('username', '=', login).then(0).else(1).end())
    .orderBy('id')
    .execute();
}

export function findUserByAffCode(db: Db, affCode: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('aff_code', '=', affCode).executeTakeFirst();
}

export type NewUser = Omit<NewUserRow, 'aff_code' | 'created_at'>;

/** Inserts a user with a fresh unique invite code and answers the stored row. */
export async function insertUser(db: Db, user: NewUser): Promise<UserRow> {
  const row = { ...user, aff_code: randomText(8), created_at: Math.floor(Date.now() / 1000) };
  const result = await db.insertInto('users').values(row).executeTakeFirstOrThrow();
  const inserted =
    result.insertId !== undefined
      ? await findUserById(db, Number(result.insertId))
      : await findUserByUsername(db, row.username);
  if (!inserted) throw new Error('user insert did not persist');
  return inserted;
}
