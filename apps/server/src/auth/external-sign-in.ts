import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  DISPLAY_NAME_MAX_LENGTH,
  USERNAME_MAX_LENGTH,
  UserStatus,
  type Envelope,
  type TwoFactorChallenge,
  type User,
} from '@gatehouse/shared';
import type { AppContext } from '../context';
import type { UserRow } from '../db/schema';
import { BusinessError, fail } from '../http/envelope';
import { createUserAccount } from '../users/register-user';
import { findUserById, findUserByUsername, toPublicUser } from '../users/user-repository';
import { randomText } from './password';
import { completeSignIn } from './two-factor';

/** An account at GitHub, Lark or WeChat, as its provider describes it. */
export interface ExternalIdentity {
  /** the provider's stable id (GitHub numeric id, Lark open_id, WeChat openid) */
  id: string;
  /** a username to start from; ending in "_" means "always add a number" */
  usernameBase: string;
  displayName: string;
  /** an e-mail address the provider vouches for, given to a new account when no other user has it */
  email?: string;
}

export type ExternalAccountColumn = 'github_id' | 'lark_id' | 'wechat_id' | 'oidc_id';

const PROVIDER_NAMES: Record<ExternalAccountColumn, string> = {
  github_id: 'GitHub',
  lark_id: 'Lark',
  wechat_id: 'WeChat',
  oidc_id: 'OIDC',
};

const USERNAME_ATTEMPTS = 8;

function findUserByExternalId(context: AppContext, column: ExternalAccountColumn, id: string) {
  return context.db.selectFrom('users').selectAll().where(column, '=', id).orderBy('id').executeTakeFirst();
}

async function emailTaken(context: AppContext, email: string): Promise<boolean> {
  const row = await context.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  return row !== undefined;
}

/** Usernames to try, each at most 12 characters: the base itself, then the base with random digits. */
export function usernameCandidates(base: string): string[] {
  const cleaned = base.trim().replace(/\s+/g, '') || 'user_';
  const isPrefix = cleaned.endsWith('_');
  const candidates = isPrefix ? [] : [cleaned.slice(0, USERNAME_MAX_LENGTH)];
  for (let attempt = 0; attempt < USERNAME_ATTEMPTS; attempt += 1) {
    const prefix = isPrefix ? cleaned : `${cleaned.slice(0, USERNAME_MAX_LENGTH - 5)}_`;
    const digits = Math.min(6, USERNAME_MAX_LENGTH - prefix.length);
    candidates.push(prefix.slice(0, USERNAME_MAX_LENGTH - digits) + randomText(digits, '0123456789'));
  }
  return candidates;
}

/** A new account for an external identity, with the registration gifts of any new user. */
async function createExternalUser(
  context: AppContext,
  column: ExternalAccountColumn,
  identity: ExternalIdentity,
): Promise<UserRow> {
  const email = identity.email && !(await emailTaken(context, identity.email)) ? identity.email : '';
  for (const username of usernameCandidates(identity.usernameBase)) {
    if (await findUserByUsername(context.db, username)) continue;
    try {
      // Nobody knows this password: the account signs in through its provider until the user sets one.
      const user = await createUserAccount(context, {
        username,
        password: randomText(20),
        aff_code: '',
        display_name: identity.displayName.slice(0, DISPLAY_NAME_MAX_LENGTH),
        ...(email ? { email } : {}),
      });
      await context.db
        .updateTable('users')
        .set({ [column]: identity.id })
        .where('id', '=', user.id)
        .execute();
      return { ...user, [column]: identity.id };
    } catch (error) {
      // Someone took the name in the meantime: try the next one.
      if (error instanceof BusinessError && /already taken/.test(error.message)) continue;
      throw error;
    }
  }
  return fail('Could not find a free username; please register with a password instead');
}

/** Signs in the user bound to the identity, or creates one when registration is open. */
export async function signInWithExternalAccount(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  column: ExternalAccountColumn,
  identity: ExternalIdentity,
): Promise<Envelope<User | TwoFactorChallenge>> {
  let user = await findUserByExternalId(context, column, identity.id);
  if (!user) {
    if (!context.options.getBoolean('RegisterEnabled')) {
      fail('New user registration is turned off by the administrator');
    }
    user = await createExternalUser(context, column, identity);
  }
  if (user.status !== UserStatus.enabled) fail('This user has been banned');
  // A session now, or the second step first when the user has two-factor sign-in on.
  return completeSignIn(context, request, reply, user);
}

/** Binds the identity to the signed-in user; one external account belongs to one user only. */
export async function bindExternalAccount(
  context: AppContext,
  user: UserRow,
  column: ExternalAccountColumn,
  identity: ExternalIdentity,
): Promise<User> {
  const holder = await findUserByExternalId(context, column, identity.id);
  if (holder && holder.id !== user.id) {
    fail(`This ${PROVIDER_NAMES[column]} account is already bound to another user`);
  }
  await context.db
    .updateTable('users')
    .set({ [column]: identity.id })
    .where('id', '=', user.id)
    .execute();
  const updated = await findUserById(context.db, user.id);
  return toPublicUser(updated ?? user);
}
