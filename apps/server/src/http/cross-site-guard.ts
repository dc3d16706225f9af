import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { isManagementApiUrl } from './api-path';
import { HttpError } from './envelope';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A GET that changes something (rotates a token, binds an account, starts upstream calls…): the
     * cross-site guard refuses it from other sites like any POST, PUT or DELETE.
     */
    changesState?: boolean;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const CROSS_SITE_REFUSAL =
  'Refused: this request came from another site. Open the console at its own address and try again.';

/** The host (and port) of an absolute URL, or null when it is not one (Origin "null", for instance). */
function hostOf(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

/** Hosts this server answers as: the one the browser addressed, and the configured public address. */
function ownHosts(context: AppContext, request: FastifyRequest): string[] {
  const hosts = [request.host.toLowerCase()];
  const configured = hostOf(context.options.get('ServerAddress').trim());
  if (configured) hosts.push(configured);
  return hosts;
}

/**
 * Whether the browser says the request came from another site. Fetch Metadata first: `same-origin` and `none`
 * (typed in the address bar, a bookmark) pass, `cross-site` never does. Without it (older browsers) and for
 * `same-site` (a sibling subdomain or another port), the Origin header decides, else the Referer. A request with
 * none of these headers is not from a browser page (curl, scripts with an access token) and passes.
 */
export function isCrossSiteRequest(context: AppContext, request: FastifyRequest): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite === 'same-origin' || fetchSite === 'none') return false;
  if (fetchSite !== undefined && fetchSite !== 'same-site') return true;
  const source = request.headers.origin ?? request.headers.referer;
  if (source === undefined) return fetchSite === 'same-site';
  const sourceHost = hostOf(source);
  if (sourceHost === null) return true;
  // The Host header carries no scheme; normalise it with the source's scheme so default ports compare equal.
  const scheme = new URL(source).protocol;
  return !ownHosts(context, request).some((host) => hostOf(`${scheme}//${host}`) === sourceHost);
}

/**
 * One guard against cross-site request forgery on the management API. The session cookie rides some requests
 * from other sites (SameSite=Lax lets top-level navigations through), so every state-changing route refuses
 * them: all methods but GET, HEAD and OPTIONS by default, and the GETs whose route config says `changesState`.
 * A refused request is answered 403 before authentication, body parsing or the handler, so nothing changes.
 */
export function registerCrossSiteGuard(app: FastifyInstance, context: AppContext): void {
  // A callback hook: no promise and microtask per request (see no-store.ts).
  app.addHook('onRequest', (request, _reply, done) => {
    if (!isManagementApiUrl(request.url)) {
      done();
      return;
    }
    const changesState =
      !SAFE_METHODS.has(request.method) || request.routeOptions.config?.changesState === true;
    if (!changesState || !isCrossSiteRequest(context, request)) {
      done();
      return;
    }
    request.log.warn(
      {
        method: request.method,
        url: request.routeOptions.url,
        secFetchSite: request.headers['sec-fetch-site'],
        origin: request.headers.origin,
      },
      'cross-site request refused',
    );
    done(new HttpError(403, CROSS_SITE_REFUSAL));
  });
}
