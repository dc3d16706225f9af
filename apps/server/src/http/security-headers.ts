import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import type { OptionKey } from '../options/option-defaults';
import { isManagementApiUrl, isRelayUrl } from './api-path';

// Cloudflare's CSP guidance: https://developers.cloudflare.com/turnstile/reference/content-security-policy/
// keep in sync with TURNSTILE_SCRIPT_URL in apps/web/src/features/accounts/turnstile-script.ts
const TURNSTILE_ORIGIN = 'https://challenges.cloudflare.com';
/** Options whose value, when it is a web address, the console shows in a frame (home, about, chat). */
const FRAMED_OPTIONS: OptionKey[] = ['HomePageContent', 'About', 'ChatLink'];
const HSTS_MAX_AGE_SECONDS = 365 * 24 * 3600;

/** Answers a browser should never render as a page: JSON, errors, the relay. */
const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** The origin of an http(s) address, or null for anything else (Markdown, an empty option). */
function frameableOrigin(value: string): string | null {
  const trimmed = value.trim();
  if (!/^https?:\/\//i.test(trimmed)) return null;
  try {
    return new URL(trimmed).origin;
  } catch {
    return null;
  }
}

/**
 * The console's policy. Scripts only from this server (Vite's built modules; index.html has no inline script)
 * and Turnstile when its check is on. Styles allow 'unsafe-inline': Mantine writes its CSS variables into a
 * <style> element at run time and sets style attributes on components, which no fixed hash can cover; injected
 * CSS is far less dangerous than script, and script stays locked. Frames: Turnstile's widget and the operator's
 * framed pages, by origin, read from the options on each answer so a change applies with the next page load.
 * Images from anywhere over HTTPS (logos and pictures in the operator's Markdown).
 */
export function consoleContentSecurityPolicy(context: AppContext): string {
  const isTurnstileOn = context.options.getBoolean('TurnstileCheckEnabled');
  const frameOrigins = new Set<string>();
  for (const key of FRAMED_OPTIONS) {
    const origin = frameableOrigin(context.options.get(key));
    if (origin) frameOrigins.add(origin);
  }
  if (isTurnstileOn) frameOrigins.add(TURNSTILE_ORIGIN);
  const directives = [
    "default-src 'self'",
    `script-src 'self'${isTurnstileOn ? ` ${TURNSTILE_ORIGIN}` : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    `frame-src ${frameOrigins.size > 0 ? [...frameOrigins].join(' ') : "'none'"}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  return directives.join('; ');
}

/**
 * Security headers on every answer. The relay's callers are programs, so they get only nosniff. The console and
 * the management API also refuse to be framed (clickjacking), and send other sites only our origin as the
 * referrer (a reset link's token in the address must not leak; same-origin requests keep the full Referer that
 * the cross-site guard falls back on). HSTS only when the request itself arrived over HTTPS (behind a proxy,
 * TRUST_PROXY makes request.protocol honest): over plain HTTP the header is ignored and would only mislead.
 */
export function registerSecurityHeaders(app: FastifyInstance, context: AppContext): void {
  // A callback hook: no promise and microtask per request (see no-store.ts).
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    // The relay and the OpenAI-style billing endpoints are called by programs with a key.
    if (isRelayUrl(request.url)) {
      done();
      return;
    }
    reply.header('X-Frame-Options', 'DENY');
    reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
    reply.header(
      'Content-Security-Policy',
      isManagementApiUrl(request.url) ? API_POLICY : consoleContentSecurityPolicy(context),
    );
    if (request.protocol === 'https') {
      reply.header('Strict-Transport-Security', `max-age=${HSTS_MAX_AGE_SECONDS}`);
    }
    done();
  });
}
