import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';

const API_PREFIXES = ['/api/', '/v1/', '/v1beta/', '/dashboard/'];

/**
 * Serves the built console: hashed assets cached for a year, index.html never cached, and every
 * client route falling back to index.html. Unknown /api paths answer 404 JSON.
 */
export async function registerConsoleRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  const root = context.config.webDistPath;
  const hasConsole = existsSync(path.join(root, 'index.html'));
  if (hasConsole) {
    // Loaded only to serve a console: with its file globbing and MIME tables it is ~30 modules an API-only
    // server (no console build) never uses.
    const { default: fastifyStatic } = await import('@fastify/static');
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      // Our setHeaders decides caching; the plugin's own max-age default would overwrite it.
      cacheControl: false,
      setHeaders(response, filePath) {
        const isHashedAsset = filePath.includes(`${path.sep}assets${path.sep}`);
        response.setHeader(
          'Cache-Control',
          isHashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  } else {
    app.log.warn(`no console build at ${root}: run "npm run build" to serve the console`);
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (url === '/api' || API_PREFIXES.some((prefix) => url.startsWith(prefix))) {
      return reply.status(404).send({ success: false, message: `No such API: ${request.method} ${url}` });
    }
    if (!hasConsole || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.status(404).type('text/plain').send('Not found');
    }
    // cacheControl: false keeps @fastify/static from replacing our header with its max-age default.
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html', root, { cacheControl: false });
  });
}
