import type { FastifyInstance } from 'fastify';
import { ChannelStatus, isRootRole, type AvailableModel } from '@gatehouse/shared';
import type { AppContext } from '../context';
import type { Db } from '../db/database';
import type { UserRow } from '../db/schema';
import { randomText } from '../auth/password';
import { createGuards, currentUser, endSession } from '../http/auth';
import { fail, ok } from '../http/envelope';
import { deleteUserAccount } from './delete-user';
import { splitGroups } from './groups';
import { auditActorOf } from '../audit/audit-actor';
import { recordAudit } from '../audit/audit-log';
import { userChanges } from '../audit/audit-subjects';

/** The user's invite code; users imported without one get a fresh code once, then keep it. */
async function getAffCode(db: Db, user: UserRow): Promise<string> {
  if (user.aff_code) return user.aff_code;
  const affCode = randomText(8);
  await db
    .updateTable('users')
    .set({ aff_code: affCode })
    .where('id', '=', user.id)
    .where('aff_code', '=', '')
    .execute();
  const stored = await db.selectFrom('users').select('aff_code').where('id', '=', user.id).executeTakeFirst();
  return stored?.aff_code || affCode;
}

/** Models any enabled channel serves to one of the user's groups, by name. */
async function listAvailableModels(db: Db, user: UserRow): Promise<AvailableModel[]> {
  const rows = await db
    .selectFrom('abilities')
    .innerJoin('channels', 'channels.id', 'abilities.channel_id')
    .select('abilities.model')
    .distinct()
    .where('abilities.group', 'in', splitGroups(user.group))
    .where('abilities.enabled', '=', 1)
    .where('channels.status', '=', ChannelStatus.enabled)
    .orderBy('abilities.model')
    .execute();
  return rows.map((row) => ({ model: row.model }));
}

/** Self routes that go beyond the profile: invite code, available models, deleting one's own account. */
export function registerSelfAccountRoutes(app: FastifyInstance, context: AppContext): void {
  const { db } = context;
  const { user: signedIn } = createGuards(context);

  app.get('/api/user/aff', { preHandler: signedIn, config: { changesState: true } }, async (request) => {
    return ok(await getAffCode(db, currentUser(request)));
  });

  app.get('/api/user/available_models', { preHandler: signedIn }, async (request) => {
    return ok(await listAvailableModels(db, currentUser(request)));
  });

  app.delete('/api/user/self', { preHandler: signedIn }, async (request, reply) => {
    const user = currentUser(request);
    if (isRootRole(user.role)) fail('The super admin cannot delete its own account');
    await deleteUserAccount(db, user.id);
    await recordAudit(db, auditActorOf(request), {
      action: 'user.delete',
      target: { type: 'user', id: user.id, name: user.username },
      changes: userChanges(user, null),
    });
    context.events.emit('userChanged', user.id);
    await endSession(context, request, reply);
    return ok(undefined, 'Account deleted!');
  });
}
