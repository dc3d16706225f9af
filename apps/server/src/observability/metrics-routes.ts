import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { getTelemetry } from './telemetry';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** `Authorization: Bearer <token>` against the option, in constant time (both sides hashed to one length). */
function hasMetricsToken(request: FastifyRequest, expected: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  if (!match) return false;
  return timingSafeEqual(digest(match[1]), digest(expected));
}

/**
 * GET /metrics in Prometheus's text format, for scrapers that send the MetricsToken option as a bearer token.
 * Not served at all (404) while the option is empty; a wrong or missing token is a 401.
 */
export function registerMetricsRoutes(app: FastifyInstance, context: AppContext): void {
  app.get('/metrics', async (request, reply) => {
    const token = context.options.get('MetricsToken');
    const metrics = getTelemetry(context).metrics();
    if (token === '' || !metrics) {
      return reply.code(404).type('text/plain; charset=utf-8').send('Not found\n');
    }
    if (!hasMetricsToken(request, token)) {
      return reply
        .code(401)
        .header('WWW-Authenticate', 'Bearer realm="metrics"')
        .type('text/plain; charset=utf-8')
        .send('A valid metrics token is required (Authorization: Bearer <MetricsToken>)\n');
    }
    const text = await metrics.registry.metrics();
    return reply.header('Cache-Control', 'no-store').type(metrics.registry.contentType).send(text);
  });
}
