import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { Role, UserStatus } from '@gatehouse/shared';
import type { AppContext } from '../context';
import type { UserRow } from '../db/schema';
import { HttpError } from './envelope';

export const SESSION_COOKIE = 'gatehouse_session';
const SESSION_MAX_AGE_SECONDS = 30 * 24 * 3600;

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, once `loadUser` has run (undefined = not looked up yet). */
    currentUser?: UserRow | null;
  }
}

/** The cookie holds `userId.sessionVersion`, signed; bumping session_version ends every session at once. */
export function startSession(reply: FastifyReply, request: FastifyRequest, user: UserRow): void {
  reply.setCookie(SESSION_COOKIE, `${user.id}.${user.session_version}`, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    signed: true,
    maxAge: SESSION_MAX_AGE_SECONDS,
  });
}

export function endSession(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

async function findSessionUser(context: AppContext, request: FastifyRequest): Promise<UserRow | null> {
  const raw = request.cookies[SESSION_COOKIE];
  if (raw) {
    const unsigned = request.unsignCookie(raw);
    const match = unsigned.valid && unsigned.value ? /^(\d+)\.(\d+)$/.exec(unsigned.value) : null;
    if (match) {
      const user = await context.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', Number(match[1]))
        .executeTakeFirst();
      if (user && user.session_version === Number(match[2])) return user;
    }
  }
  const header = request.headers.authorization?.trim();
  if (header) {
    const accessToken = header.replace(/^Bearer\s+/i, '');
    if (accessToken !== '' && !accessToken.startsWith('sk-')) {
      const user = await context.db
        .selectFrom('users')
        .selectAll()
        .where('access_token', '=', accessToken)
        .executeTakeFirst();
      if (user) return user;
    }
  }
  return null;
}

/** The signed-in, enabled user of this request, or null. Looked up once per request. */
export async function loadUser(context: AppContext, request: FastifyRequest): Promise<UserRow | null> {
  if (request.currentUser === undefined) {
    const user = await findSessionUser(context, request);
    request.currentUser = user && user.status === UserStatus.enabled ? user : null;
  }
  return request.currentUser;
}

/** A preHandler that answers 401 without a valid login and 403 when the role is too low. */
export function requireRole(context: AppContext, minimumRole: number): preHandlerAsyncHookHandler {
  return async (request) => {
    const user = await loadUser(context, request);
    if (!user) throw new HttpError(401, 'Not logged in or login expired, please log in again!');
    if (user.role < minimumRole) throw new HttpError(403, 'You do not have permission to do this');
  };
}

/** The user a guarded handler runs for; only call after a `requireRole` preHandler. */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.currentUser) throw new HttpError(401, 'Not logged in or login expired, please log in again!');
  return request.currentUser;
}

export interface Guards {
  user: preHandlerAsyncHookHandler;
  admin: preHandlerAsyncHookHandler;
  root: preHandlerAsyncHookHandler;
}

export function createGuards(context: AppContext): Guards {
  return {
    user: requireRole(context, Role.common),
    admin: requireRole(context, Role.admin),
    root: requireRole(context, Role.root),
  };
}
