import type { FastifyInstance } from 'fastify';
import type { UserSession } from '@gatehouse/shared';
import type { AppContext } from '../context';
import { deleteSession, deleteUserSessions, listSessions } from '../auth/session-store';
import { SESSION_COOKIE, createGuards, currentUser } from '../http/auth';
import { fail, ok } from '../http/envelope';

/**
 * The signed-in user's own console sessions: list them, end one, or end all the others ("sign out
 * everywhere else"; this one stays, so the page that asked keeps working). DELETE passes the cross-site guard.
 */
export function registerSessionRoutes(app: FastifyInstance, context: AppContext): void {
  const { db } = context;
  const guards = createGuards(context);

  app.get('/api/user/sessions', { preHandler: guards.user }, async (request) => {
    const sessions = await listSessions(db, currentUser(request));
    return ok(
      sessions.map((session): UserSession => ({
        id: session.id,
        created_at: session.created_at,
        last_seen_at: session.last_seen_at,
        expires_at: session.expires_at,
        ip: session.ip,
        user_agent: session.user_agent,
        is_current: session.id === request.currentSessionId,
      })),
    );
  });

  app.delete<{ Params: { id: string } }>(
    '/api/user/sessions/:id',
    { preHandler: guards.user },
    async (request, reply) => {
      const user = currentUser(request);
      if (!(await deleteSession(db, user.id, request.params.id))) fail('No such session');
      if (request.params.id === request.currentSessionId) reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return ok(undefined, 'Signed out');
    },
  );

  app.delete('/api/user/sessions', { preHandler: guards.user }, async (request) => {
    const ended = await deleteUserSessions(db, currentUser(request).id, request.currentSessionId);
    return ok({ ended }, 'Signed out everywhere else');
  });
}
