import { createHash, randomBytes } from 'node:crypto';
import { nowSeconds } from '@gatehouse/shared';
import type { Db } from '../db/database';
import type { SessionRow, UserRow } from '../db/schema';

export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 3600;
/** last_seen_at is written at most this often, so a signed-in console costs no write per request */
const LAST_SEEN_RESOLUTION_SECONDS = 60;
const USER_AGENT_MAX_LENGTH = 512;

export const hashSessionToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export interface SessionClient {
  ip: string;
  userAgent: string;
}

/** Stores a new session and answers the token for the cookie (only its hash is kept). */
export async function createSession(db: Db, user: UserRow, client: SessionClient): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = nowSeconds();
  // Expired rows of this user go at each sign-in, so the table holds no more than the live ones and a few.
  await db.deleteFrom('sessions').where('user_id', '=', user.id).where('expires_at', '<=', now).execute();
  await db
    .insertInto('sessions')
    .values({
      id: hashSessionToken(token),
      user_id: user.id,
      session_version: user.session_version,
      created_at: now,
      last_seen_at: now,
      expires_at: now + SESSION_MAX_AGE_SECONDS,
      ip: client.ip.slice(0, 64),
      user_agent: client.userAgent.slice(0, USER_AGENT_MAX_LENGTH),
    })
    .execute();
  return token;
}

/**
 * The live session of a cookie token and its user, or null. A session from before the user's session_version
 * was bumped (password, role or status change) is over: its row is deleted here.
 */
export async function findSession(
  db: Db,
  token: string,
): Promise<{ session: SessionRow; user: UserRow } | null> {
  const session = await db
    .selectFrom('sessions')
    .selectAll()
    .where('id', '=', hashSessionToken(token))
    .executeTakeFirst();
  const now = nowSeconds();
  if (!session || session.expires_at <= now) return null;
  const user = await db.selectFrom('users').selectAll().where('id', '=', session.user_id).executeTakeFirst();
  if (!user || user.session_version !== session.session_version) {
    await deleteSession(db, session.user_id, session.id);
    return null;
  }
  if (now - session.last_seen_at >= LAST_SEEN_RESOLUTION_SECONDS) {
    await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', session.id).execute();
    session.last_seen_at = now;
  }
  return { session, user };
}

/** The user's live sessions, most recently seen first. */
export async function listSessions(db: Db, user: UserRow): Promise<SessionRow[]> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('user_id', '=', user.id)
    .where('session_version', '=', user.session_version)
    .where('expires_at', '>', nowSeconds())
    .orderBy('last_seen_at', 'desc')
    .execute();
}

/** Ends one session of a user; false when the user has no such session. */
export async function deleteSession(db: Db, userId: number, sessionId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('sessions')
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Ends every session of a user, or every one but `keepSessionId`. */
export async function deleteUserSessions(db: Db, userId: number, keepSessionId?: string): Promise<number> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepSessionId) query = query.where('id', '!=', keepSessionId);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}
