import type { FastifyInstance } from 'fastify';
import { isManagementApiUrl } from './api-path';

/**
 * `Cache-Control: no-store` on every management API answer, errors included. Many carry keys, access tokens,
 * new passwords or option secrets, and the rest are one signed-in user's data: no browser or proxy cache may
 * keep any of them. Marking all of /api/* means a new route cannot forget it; nothing there is worth caching.
 */
export function registerNoStore(app: FastifyInstance): void {
  // A callback hook rather than an async one: it runs on every request, and an async hook costs a promise and
  // a microtask each time.
  app.addHook('onRequest', (request, reply, done) => {
    if (isManagementApiUrl(request.url)) reply.header('Cache-Control', 'no-store');
    done();
  });
}
