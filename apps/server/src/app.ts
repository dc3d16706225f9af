import { randomBytes } from 'node:crypto';
import { STATUS_CODES, type ServerOptions } from 'node:http';
import fastifyCookie from '@fastify/cookie';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  type RouteOptions,
} from 'fastify';
import type { Config } from './config/config';
import type { AppContext } from './context';
import { registerLoginRoutes } from './auth/login-routes';
import { registerEmailRoutes } from './auth/email-routes';
import { registerOAuthRoutes } from './auth/oauth-routes';
import { registerOidcRoutes } from './auth/oidc-routes';
import { registerRateLimits } from './auth/rate-limit-hooks';
import { registerTwoFactorRoutes } from './auth/two-factor-routes';
import { installErrorHandler } from './http/error-handler';
import { lazySchemaCompilers } from './http/lazy-schema-compilers';
import { refuseRepeatedParameters } from './http/repeated-parameters';
import { registerCrossSiteGuard } from './http/cross-site-guard';
import { registerNoStore } from './http/no-store';
import { registerSecurityHeaders } from './http/security-headers';
import { registerStatusRoutes } from './status/status-routes';
import { registerSelfRoutes } from './users/self-routes';
import { registerSessionRoutes } from './users/session-routes';
import { registerUserManagementRoutes } from './users/user-management-routes';
import { registerOptionRoutes } from './options/option-routes';
import { registerImportRoutes } from './import/import-routes';
import { registerChannelRoutes } from './channels/channel-routes';
import { registerTokenRoutes } from './tokens/token-routes';
import { registerRedemptionRoutes } from './redemptions/redemption-routes';
import { registerTopupRoutes } from './redemptions/topup-routes';
import { registerLogRoutes } from './logs/log-routes';
import { registerLogClearRoutes } from './logs/log-clear-routes';
import { registerAuditRoutes } from './audit/audit-routes';
import { registerUserDashboardRoutes } from './logs/user-dashboard-routes';
import { registerDashboardRoutes } from './rollups/dashboard-routes';
import { startLogRetention } from './logs/log-retention';
import { registerPriceListRoutes } from './billing/price-list-routes';
import { registerBuiltInPriceRoutes } from './billing/built-in-price-routes';
import { registerChannelTestRoutes } from './channels/channel-test-routes';
import { registerChannelBalanceRoutes } from './channels/balance/channel-balance-routes';
import { answerRelayBadUrl } from './relay/relay-framework-errors';
import { registerRelayRoutes } from './relay/register-relay-routes';
import { registerMetricsRoutes } from './observability/metrics-routes';
import { registerOpenApiRoutes } from './openapi/openapi-routes';
import { registerConsoleRoutes } from './web/console-routes';
import { RequestLogController } from './logging/request-log';

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

/**
 * Slow clients: the whole request (headers and body) must arrive within the request timeout, however it
 * trickles, and idle keep-alive connections close. Node's request timeout covers only receiving the request, so
 * long streamed answers are not cut; no socket idle timeout is set, since an upstream may think for minutes
 * before its first byte. Node checks these every connectionsCheckingInterval (30 s by default): every second
 * keeps the configured timeouts close to exact.
 */
function clientTimeouts(config: Config): {
  requestTimeout: number;
  keepAliveTimeout: number;
  http: ServerOptions;
} {
  return {
    requestTimeout: config.requestBodyTimeoutSeconds * 1000,
    keepAliveTimeout: config.keepAliveTimeoutSeconds * 1000,
    http: { headersTimeout: config.headersTimeoutSeconds * 1000, connectionsCheckingInterval: 1000 },
  };
}

export interface BuildAppOptions {
  logger?: FastifyServerOptions['logger'];
  /** told of every route as it is registered (the API reference's test compares them with the route table) */
  onRoute?: (route: RouteOptions) => void;
}

function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (answerRelayBadUrl(error, request, reply)) return;
  const statusCode = error.statusCode ?? 500;
  void reply
    .status(statusCode)
    .send({ error: STATUS_CODES[statusCode], code: error.code, message: error.message, statusCode });
}

/** Builds the whole server (management API, relay, console) around a context; exported for tests. */
export async function buildApp(context: AppContext, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    // One line per answered request: relay and API at info, the console's files at debug.
    logController: new RequestLogController(),
    routerOptions: { ignoreTrailingSlash: true },
    genReqId: createRequestIdGenerator(),
    bodyLimit: 32 * 1024 * 1024,
    // Behind a load balancer the client address (rate limits, key subnets) comes from X-Forwarded-For.
    trustProxy: toFastifyTrustProxy(context.config.trustProxy),
    ...clientTimeouts(context.config),
    schemaController: { compilersFactory: lazySchemaCompilers() },
    // Errors raised before routing (a path with a broken %-escape): relay paths answer in their client's
    // protocol, others with Fastify's own body.
    frameworkErrors: answerFrameworkError,
  });
  // A callback hook: no promise and microtask per request (see http/no-store.ts).
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  await app.register(fastifyCookie, { secret: context.config.sessionSecret });
  installErrorHandler(app);
  refuseRepeatedParameters(app);
  registerNoStore(app);
  registerSecurityHeaders(app, context);
  registerRateLimits(app, context);
  registerCrossSiteGuard(app, context);

  registerStatusRoutes(app, context);
  registerLoginRoutes(app, context);
  registerEmailRoutes(app, context);
  registerOAuthRoutes(app, context);
  registerOidcRoutes(app, context);
  registerTwoFactorRoutes(app, context);
  registerSelfRoutes(app, context);
  registerSessionRoutes(app, context);
  registerUserManagementRoutes(app, context);
  registerOptionRoutes(app, context);
  registerImportRoutes(app, context);
  registerChannelRoutes(app, context);
  registerTokenRoutes(app, context);
  registerRedemptionRoutes(app, context);
  registerTopupRoutes(app, context);
  registerLogRoutes(app, context);
  registerLogClearRoutes(app, context);
  registerAuditRoutes(app, context);
  registerUserDashboardRoutes(app, context);
  registerDashboardRoutes(app, context);
  startLogRetention(context, app.log);
  registerPriceListRoutes(app, context);
  registerBuiltInPriceRoutes(app, context);
  registerChannelTestRoutes(app, context);
  registerChannelBalanceRoutes(app, context);
  registerOpenApiRoutes(app);
  registerRelayRoutes(app, context);
  registerMetricsRoutes(app, context);

  await registerConsoleRoutes(app, context);
  return app;
}
