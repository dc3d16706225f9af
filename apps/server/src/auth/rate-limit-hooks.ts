import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { isManagementApiUrl, isRelayUrl } from '../http/api-path';
import { HttpError } from '../http/envelope';

const MINUTE_MS = 60_000;
const GLOBAL_WINDOW_MS = 3 * MINUTE_MS;
const CRITICAL_WINDOW_MS = 20 * MINUTE_MS;

/** Sign-in and account-recovery routes: the ones worth guessing passwords and codes against. */
const CRITICAL_ROUTES = new Set([
  'POST /api/user/login',
  'POST /api/user/register',
  'GET /api/verification',
  'GET /api/reset_password',
  'POST /api/user/reset',
  // Codes of two-factor sign-in: each try counts like a password try.
  'POST /api/user/login/2fa',
  'POST /api/user/2fa/confirm',
  'POST /api/user/2fa/disable',
  'POST /api/user/2fa/recovery_codes',
]);

/**
 * The longest address a counter's key keeps. Real ones are at most 45 characters (IPv6 with an IPv4 tail),
 * but TRUST_PROXY=true believes any X-Forwarded-For, so request.ip can be as long as a header: each counter
 * (in memory or in Redis) would hold that much. Sessions keep the same 64 characters of it.
 */
const MAX_ADDRESS_LENGTH = 64;

function isCriticalRoute(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  if (route === undefined) return false;
  return route.startsWith('/api/oauth/') || CRITICAL_ROUTES.has(`${request.method} ${route}`);
}

/**
 * The relay (/v1, /v1beta, /dashboard) is limited by its keys' quota, not here. Hashed console assets are not
 * counted either: they are immutable and cached for a year, and one lazy-loaded page fetches many of them.
 */
function classifyUrl(url: string): 'api' | 'web' | null {
  if (isManagementApiUrl(url)) return 'api';
  if (isRelayUrl(url) || url.startsWith('/assets/')) return null;
  return 'web';
}

/**
 * Per client address: GLOBAL_API_RATE_LIMIT on /api/* and GLOBAL_WEB_RATE_LIMIT on console pages
 * per 3 minutes, and CRITICAL_RATE_LIMIT per 20 minutes on the critical routes. Refusals are HTTP 429.
 * When Redis fails, the node counts alone for a while (FallbackRateLimiter); should the counter store fail
 * anyway, requests pass: an outage must not lock everyone out.
 */
export function registerRateLimits(app: FastifyInstance, context: AppContext): void {
  const { config } = context;
  const { rateLimiter } = context.auth;

  async function enforce(
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    limit: number,
    windowMs: number,
  ): Promise<void> {
    let result;
    try {
      result = await rateLimiter.hit(`${key}:${request.ip.slice(0, MAX_ADDRESS_LENGTH)}`, limit, windowMs);
    } catch (error) {
      request.log.error({ err: error }, 'rate limiter unavailable; letting the request through');
      return;
    }
    if (result.isAllowed) return;
    reply.header('Retry-After', String(Math.max(1, Math.ceil(result.retryAfterMs / 1000))));
    throw new HttpError(429, 'Too many requests, please try again later');
  }

  async function enforceFor(
    kind: 'api' | 'web',
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> {
    if (kind === 'web') {
      await enforce(request, reply, 'web', config.globalWebRateLimit, GLOBAL_WINDOW_MS);
      return;
    }
    await enforce(request, reply, 'api', config.globalApiRateLimit, GLOBAL_WINDOW_MS);
    if (isCriticalRoute(request)) {
      await enforce(request, reply, 'critical', config.criticalRateLimit, CRITICAL_WINDOW_MS);
    }
  }

  // A callback hook, so the relay's requests, which are not counted here, cost no promise and microtask.
  app.addHook('onRequest', (request, reply, done) => {
    const kind = classifyUrl(request.url);
    if (kind === null) done();
    else enforceFor(kind, request, reply).then(() => done(), done);
  });
}
