import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { BusinessError } from './envelope';

function refuseRepeated(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  for (const [name, value] of Object.entries(request.query as Record<string, unknown>)) {
    if (Array.isArray(value)) {
      done(new BusinessError(`parameter ${name} was given more than once`));
      return;
    }
  }
  done();
}

/**
 * A query parameter given more than once (`?keyword=a&keyword=b`) is refused on every management route before
 * the route runs, as the business error "parameter keyword was given more than once". Which value was meant would
 * be a guess (HTTP stacks disagree on first or last), and every route can then read its query as plain text.
 * Like a malformed JSON body, this is refused before the sign-in check. The relay (/v1) reads no query string.
 *
 * The check is attached to the management routes as they are registered (call this before any route), so the
 * relay's requests do not run it at all: a global hook had to ask each request for its route, and Fastify builds
 * a new object of the route's options on every ask (~2 µs).
 */
export function refuseRepeatedParameters(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    const own = route.preValidation;
    route.preValidation = own === undefined ? [refuseRepeated] : [refuseRepeated, ...[own].flat()];
  });
}
