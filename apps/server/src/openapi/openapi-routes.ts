import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument } from './openapi-document';

/**
 * GET /api/openapi.json: the API reference. Public, like most APIs' references: it describes routes and
 * schemas only, no data and no secrets. Built once, on the first call.
 */
export function registerOpenApiRoutes(app: FastifyInstance): void {
  let document: ReturnType<typeof buildOpenApiDocument> | undefined;
  app.get('/api/openapi.json', async () => (document ??= buildOpenApiDocument()));
}
