import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { registerAdminUserRoutes } from './admin-user-routes';
import { registerGroupRoutes } from './group-routes';
import { registerSelfAccountRoutes } from './self-account-routes';

/** Users issue: admin user management, groups, and the self routes beyond the profile. */
export function registerUserManagementRoutes(app: FastifyInstance, context: AppContext): void {
  registerAdminUserRoutes(app, context);
  registerSelfAccountRoutes(app, context);
  registerGroupRoutes(app, context);
}
