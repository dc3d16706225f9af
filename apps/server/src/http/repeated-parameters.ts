import type { FastifyInstance } from 'fastify';
import { BusinessError } from './envelope';

/**
 * A query parameter given more than once (`?keyword=a&keyword=b`) is refused on every management route before
 * the route runs, as the business error "parameter keyword was given more than once". Which value was meant would
 * be a guess (HTTP stacks disagree on first or last), and every route can then read its query as plain text.
 * Like a malformed JSON body, this is refused before the sign-in check. The relay (/v1) reads no query string.
 */
export function refuseRepeatedParameters(app: FastifyInstance): void {
  // A callback hook: no promise and microtask per request (see no-store.ts).
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.routeOptions.url?.startsWith('/api/')) {
      for (const [name, value] of Object.entries(request.query as Record<string, unknown>)) {
        if (Array.isArray(value)) {
          done(new BusinessError(`parameter ${name} was given more than once`));
          return;
        }
      }
    }
    done();
  });
}
