import type { FastifyInstance } from 'fastify';
import { dashboardQuerySchema, isAdminRole } from '@gatehouse/shared';
import type { AppContext } from '../context';
import { createGuards, currentUser } from '../http/auth';
import { ok } from '../http/envelope';
import { parseWith } from '../http/validate';
import { readDashboard } from './dashboard-query';

/**
 * GET /api/dashboard — usage over time from the rollups: a user's own keys, or with scope=all everyone's, which
 * passes the admin guard first (403 like any admin route). Channels appear for admins only.
 */
export function registerDashboardRoutes(app: FastifyInstance, context: AppContext): void {
  const guards = createGuards(context);
  app.get('/api/dashboard', { preHandler: guards.user }, async function (request, reply) {
    const query = parseWith(dashboardQuerySchema, request.query);
    if (query.scope === 'all') await guards.admin.call(this, request, reply);
    const user = currentUser(request);
    const viewer = { userId: user.id, isAdmin: isAdminRole(user.role) };
    return ok(await readDashboard(context.db, viewer, query));
  });
}
