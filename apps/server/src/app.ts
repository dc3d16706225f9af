import { randomBytes } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from './config/config';
import type { AppContext } from './context';
import { registerLoginRoutes } from './auth/login-routes';
import { registerEmailRoutes } from './auth/email-routes';
import { registerOAuthRoutes } from './auth/oauth-routes';
import { registerRateLimits } from './auth/rate-limit-hooks';
import { installErrorHandler } from './http/error-handler';
import { registerStatusRoutes } from './status/status-routes';
import { registerSelfRoutes } from './users/self-routes';
import { registerUserManagementRoutes } from './users/user-management-routes';
import { registerOptionRoutes } from './options/option-routes';
import { registerChannelRoutes } from './channels/channel-routes';
import { registerTokenRoutes } from './tokens/token-routes';
import { registerRedemptionRoutes } from './redemptions/redemption-routes';
import { registerTopupRoutes } from './redemptions/topup-routes';
import { registerLogRoutes } from './logs/log-routes';
import { registerLogClearRoutes } from './logs/log-clear-routes';
import { registerChannelTestRoutes } from './channels/channel-test-routes';
import { registerRelayRoutes } from './relay/register-relay-routes';
import { registerConsoleRoutes } from './web/console-routes';

/**
 * Request ids: a random prefix per process and a counter, unique across instances and far cheaper than
 * random bytes per request (which were ~3% of the relay's CPU in the benchmark).
 */
function createRequestIdGenerator(): () => string {
  const prefix = randomBytes(4).toString('hex');
  let counter = 0;
  return () => `${prefix}${(++counter).toString(36).padStart(6, '0')}`;
}

/** Fastify trusts "the nth hop" through a function; its types have no number form. */
function toFastifyTrustProxy(
  trustProxy: Config['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trustProxy === 'number' ? (_address, hop) => hop < trustProxy : trustProxy;
}

export interface BuildAppOptions {
  logger?: FastifyServerOptions['logger'];
}

/** Builds the whole server (management API, relay, console) around a context; exported for tests. */
export async function buildApp(context: AppContext, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    routerOptions: { ignoreTrailingSlash: true },
    genReqId: createRequestIdGenerator(),
    bodyLimit: 32 * 1024 * 1024,
    // Behind a load balancer the client address (rate limits, key subnets) comes from X-Forwarded-For.
    trustProxy: toFastifyTrustProxy(context.config.trustProxy),
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  await app.register(fastifyCookie, { secret: context.config.sessionSecret });
  installErrorHandler(app);
  registerRateLimits(app, context);

  registerStatusRoutes(app, context);
  registerLoginRoutes(app, context);
  registerEmailRoutes(app, context);
  registerOAuthRoutes(app, context);
  registerSelfRoutes(app, context);
  registerUserManagementRoutes(app, context);
  registerOptionRoutes(app, context);
  registerChannelRoutes(app, context);
  registerTokenRoutes(app, context);
  registerRedemptionRoutes(app, context);
  registerTopupRoutes(app, context);
  registerLogRoutes(app, context);
  registerLogClearRoutes(app, context);
  registerChannelTestRoutes(app, context);
  registerRelayRoutes(app, context);

  await registerConsoleRoutes(app, context);
  return app;
}
