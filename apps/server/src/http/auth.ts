import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { Role, TWO_FACTOR_ENROLMENT_REQUIRED_MESSAGE, UserStatus } from '@gatehouse/shared';
import type { AppContext } from '../context';
import type { UserRow } from '../db/schema';
import {
  SESSION_MAX_AGE_SECONDS,
  createSession,
  deleteSession,
  findSession,
  hashSessionToken,
} from '../auth/session-store';
import { HttpError } from './envelope';
import { setSignedCookie } from './signed-cookie';

export const SESSION_COOKIE = 'gatehouse_session';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, once `loadUser` has run (undefined = not looked up yet). */
    currentUser?: UserRow | null;
    /** The id of the session the cookie signed in with (unset for access tokens). */
    currentSessionId?: string;
  }
}

/**
 * Signs the user in: a new server-side session, its token in a signed, HTTP-only cookie. Deleting the row ends
 * the session (logout, "sign out"); bumping users.session_version ends all of the user's at once.
 */
export async function startSession(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
): Promise<void> {
  const token = await createSession(context.db, user, {
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? '',
  });
  setSignedCookie(request, reply, {
    name: SESSION_COOKIE,
    value: token,
    path: '/',
    maxAgeSeconds: SESSION_MAX_AGE_SECONDS,
  });
}

/** The session token of the request's cookie when its signature holds. */
function sessionTokenOf(request: FastifyRequest): string | null {
  const raw = request.cookies[SESSION_COOKIE];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value ? unsigned.value : null;
}

/** Ends this request's session on the server (a copy of the cookie stops working) and clears the cookie. */
export async function endSession(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const token = sessionTokenOf(request);
  if (token) {
    const session = await findSession(context.db, token);
    if (session) await deleteSession(context.db, session.user.id, hashSessionToken(token));
  }
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

async function findSessionUser(context: AppContext, request: FastifyRequest): Promise<UserRow | null> {
  const token = sessionTokenOf(request);
  if (token) {
    const found = await findSession(context.db, token);
    if (found) {
      request.currentSessionId = found.session.id;
      return found.user;
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
    // Routes every user has (Personal settings, where two-factor sign-in is turned on) stay open.
    if (
      minimumRole >= Role.admin &&
      !user.two_factor_enabled &&
      context.options.getBoolean('TwoFactorRequiredForAdmins')
    ) {
      throw new HttpError(403, TWO_FACTOR_ENROLMENT_REQUIRED_MESSAGE);
    }
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
