import type { FastifyInstance } from 'fastify';
import { selfUpdateRequestSchema } from '@gatehouse/shared';
import type { AppContext } from '../context';
import type { UserUpdate } from '../db/schema';
import { createGuards, currentUser, startSession } from '../http/auth';
import { ok } from '../http/envelope';
import { parseWith } from '../http/validate';
import { createAccessToken, hashPassword } from '../auth/password';
import { auditActorOf } from '../audit/audit-actor';
import { recordAudit } from '../audit/audit-log';
import { userChanges } from '../audit/audit-subjects';
import { findUserById, toPublicUser } from './user-repository';

/** Routes every signed-in user has over its own account. */
export function registerSelfRoutes(app: FastifyInstance, context: AppContext): void {
  const { db } = context;
  const guards = createGuards(context);

  app.get('/api/user/self', { preHandler: guards.user }, async (request) => {
    return ok(toPublicUser(currentUser(request)));
  });

  // Only display name and password: quota, role, status and group are never the user's own to change.
  app.put('/api/user/self', { preHandler: guards.user }, async (request, reply) => {
    const user = currentUser(request);
    const input = parseWith(selfUpdateRequestSchema, request.body);
    const update: UserUpdate = {};
    if (input.display_name !== undefined) update.display_name = input.display_name || user.username;
    if (input.password) {
      update.password = await hashPassword(input.password);
      // A new password ends the other sessions; this one is renewed below.
      update.session_version = user.session_version + 1;
    }
    if (Object.keys(update).length > 0) {
      await db.updateTable('users').set(update).where('id', '=', user.id).execute();
    }
    const updated = await findUserById(db, user.id);
    if (updated) {
      await recordAudit(db, auditActorOf(request), {
        action: 'user.update',
        target: { type: 'user', id: user.id, name: user.username },
        changes: userChanges(user, updated),
      });
    }
    if (updated && input.password) await startSession(context, request, reply, updated);
    return ok(updated ? toPublicUser(updated) : undefined, 'User info updated successfully!');
  });

  app.get('/api/user/token', { preHandler: guards.user, config: { changesState: true } }, async (request) => {
    const user = currentUser(request);
    const accessToken = createAccessToken();
    await db.updateTable('users').set({ access_token: accessToken }).where('id', '=', user.id).execute();
    await recordAudit(db, auditActorOf(request), {
      action: 'user.update',
      target: { type: 'user', id: user.id, name: user.username },
      changes: userChanges(user, { ...user, access_token: accessToken }),
    });
    return ok(accessToken);
  });
}
