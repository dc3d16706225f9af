import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { createGuards } from '../http/auth';
import { exportConfigFile } from './export-config-file';

/**
 * GET /api/option/config-export (root): the configuration as a YAML download. Secrets are always
 * `${VARIABLE}` placeholders here; only the command line on the server can write them out.
 */
export function registerConfigFileRoutes(app: FastifyInstance, context: AppContext): void {
  const { root } = createGuards(context);
  app.get('/api/option/config-export', { preHandler: root }, async (_request, reply) => {
    const text = await exportConfigFile(context, 'placeholders');
    return reply
      .header('content-type', 'application/yaml; charset=utf-8')
      .header('content-disposition', 'attachment; filename="gatehouse-config.yaml"')
      .header('cache-control', 'no-store')
      .send(text);
  });
}
