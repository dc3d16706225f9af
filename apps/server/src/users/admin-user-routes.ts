import type { FastifyInstance } from 'fastify';
import {
  createUserRequestSchema,
  manageUserRequestSchema,
  updateUserRequestSchema,
  userListOrders,
  userListQuerySchema,
  userSearchQuerySchema,
  type UserListOrder,
} from '@gatehouse/shared';
import type { AppContext } from '../context';
import { readPage } from '../db/paging';
import { createGuards, currentUser, startSession } from '../http/auth';
import { fail, ok } from '../http/envelope';
import { auditActorOf } from '../audit/audit-actor';
import { recordAudit } from '../audit/audit-log';
import { userChanges } from '../audit/audit-subjects';
import { parseId, parseWith } from '../http/validate';
import { listUsers, searchUsers } from './list-users';
import { manageUser } from './manage-user';
import { createUserAccount } from './register-user';
import { updateUserByAdmin } from './update-user';
import { assertCanEditUser } from './user-access';
import { findUserById, toPublicUser } from './user-repository';

function readOrder(order: string): UserListOrder {
  if (!(userListOrders as readonly string[]).includes(order)) {
    fail(`Unknown order "${order}"; use id, quota, used_quota or request_count`);
  }
  return order as UserListOrder;
}

/** User management for admins (role ≥ 10); every rule about who may act on whom is enforced here. */
export function registerAdminUserRoutes(app: FastifyInstance, context: AppContext): void {
  const { db } = context;
  const { admin } = createGuards(context);

  app.get('/api/user/', { preHandler: admin }, async (request) => {
    const query = parseWith(userListQuerySchema, request.query);
    return ok(await listUsers(db, readPage(query), readOrder(query.order)));
  });

  app.get('/api/user/search', { preHandler: admin }, async (request) => {
    const { keyword } = parseWith(userSearchQuerySchema, request.query);
    if (keyword === '') return ok(await listUsers(db, readPage({}), ''));
    return ok(await searchUsers(db, keyword));
  });

  // Only digits, so a mistyped /api/user/<word> is a 404 rather than "invalid id".
  app.get<{ Params: { id: string } }>('/api/user/:id(^\\d+$)', { preHandler: admin }, async (request) => {
    const user = await findUserById(db, parseId(request.params.id));
    if (!user) fail('User does not exist');
    assertCanEditUser(currentUser(request), user);
    return ok(toPublicUser(user));
  });

  app.post('/api/user/', { preHandler: admin }, async (request) => {
    const input = parseWith(createUserRequestSchema, request.body);
    const user = await createUserAccount(context, { ...input, aff_code: '' });
    await recordAudit(db, auditActorOf(request), {
      action: 'user.create',
      target: { type: 'user', id: user.id, name: user.username },
      changes: userChanges(null, user),
    });
    return ok(toPublicUser(user), 'User account created successfully!');
  });

  app.put('/api/user/', { preHandler: admin }, async (request, reply) => {
    const input = parseWith(updateUserRequestSchema, request.body);
    const actor = currentUser(request);
    const user = await updateUserByAdmin(context, actor, input, auditActorOf(request));
    // Root changing its own password keeps this session (the new version ended all the others).
    if (user.id === actor.id && input.password) await startSession(context, request, reply, user);
    return ok(toPublicUser(user), 'User info updated successfully!');
  });

  app.post('/api/user/manage', { preHandler: admin }, async (request) => {
    const input = parseWith(manageUserRequestSchema, request.body);
    const result = await manageUser(
      context,
      currentUser(request),
      input.username,
      input.action,
      auditActorOf(request),
    );
    return ok(result, 'Operation completed successfully!');
  });
}
