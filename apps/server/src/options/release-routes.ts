import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { createGuards } from '../http/auth';
import { ok } from '../http/envelope';
import { VERSION } from '../status/version';
import { fetchLatestRelease } from './latest-release';

/** "Check for updates" in Other settings: the server asks the releases endpoint (RELEASES_URL) for the console. */
export function registerReleaseRoutes(app: FastifyInstance, context: AppContext): void {
  const { admin } = createGuards(context);
  app.get('/api/release/latest', { preHandler: admin }, async () =>
    ok(await fetchLatestRelease(context.config.releasesUrl, VERSION)),
  );
}
