import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { createGuards } from '../http/auth';
import { ok } from '../http/envelope';
import { listGroups } from './groups';

export function registerGroupRoutes(app: FastifyInstance, context: AppContext): void {
  const { admin } = createGuards(context);
  app.get('/api/group/', { preHandler: admin }, async () => ok(await listGroups(context)));
}
