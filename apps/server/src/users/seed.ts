import type { FastifyBaseLogger } from 'fastify';
import { Role, TokenStatus, UserStatus } from '@gatehouse/shared';
import type { Config } from '../config/config';
import type { Db } from '../db/database';
import { hashPassword, verifyPassword } from '../auth/password';
import { findUserByUsername, insertUser } from './user-repository';

export const ROOT_USERNAME = 'root';
export const DEFAULT_ROOT_PASSWORD = '123456';
const ROOT_QUOTA = 500_000_000_000;

/**
 * First start on an empty database creates root / 123456 (the README's quick start), whose password the
 * console asks to change at first sign-in. INITIAL_ROOT_TOKEN and INITIAL_ROOT_ACCESS_TOKEN are applied
 * whenever root lacks them, so they also work on an existing database.
 */
export async function seedDatabase(
  context: { db: Db; config: Config },
  logger?: FastifyBaseLogger,
): Promise<void> {
  const { db, config } = context;
  const anyUser = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (!anyUser) {
    await insertUser(db, {
      username: ROOT_USERNAME,
      password: await hashPassword(DEFAULT_ROOT_PASSWORD),
      display_name: 'Root User',
      role: Role.root,
      status: UserStatus.enabled,
      quota: ROOT_QUOTA,
    });
    logger?.warn('created the root user with the default password 123456: change it now');
  }
  const root = await findUserByUsername(db, ROOT_USERNAME);
  if (!root) return;
  if (config.initialRootAccessToken && !root.access_token) {
    await db
      .updateTable('users')
      .set({ access_token: config.initialRootAccessToken })
      .where('id', '=', root.id)
      .execute();
  }
  const rootKey = config.initialRootToken.replace(/^sk-/, '');
  if (rootKey) {
    const existing = await db.selectFrom('tokens').select('id').where('key', '=', rootKey).executeTakeFirst();
    if (!existing) {
      const now = Math.floor(Date.now() / 1000);
      await db
        .insertInto('tokens')
        .values({
          user_id: root.id,
          key: rootKey,
          name: 'Initial Root Token',
          status: TokenStatus.enabled,
          created_time: now,
          accessed_time: now,
          expired_time: -1,
          unlimited_quota: 1,
        })
        .execute();
    }
  }
}

/**
 * Root can still sign in with 123456: true after a first start until someone changes it (also when the server
 * was stopped before anyone did), so the start banner keeps saying how to get in.
 */
export async function hasDefaultRootPassword(db: Db): Promise<boolean> {
  const root = await findUserByUsername(db, ROOT_USERNAME);
  return root !== undefined && (await verifyPassword(DEFAULT_ROOT_PASSWORD, root.password));
}
