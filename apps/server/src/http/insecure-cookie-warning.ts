import type { Config } from '../config/config';

/**
 * The start-up warning for a console served over HTTPS by a proxy the server was not told to trust, or null.
 * Gatehouse speaks plain HTTP; it only knows a browser used HTTPS from the proxy's X-Forwarded-Proto, which it
 * reads only with TRUST_PROXY. Without it, session cookies go out without `Secure` and nothing else says so.
 */
export function findInsecureCookieWarning(
  serverAddress: string,
  trustProxy: Config['trustProxy'],
): string | null {
  if (trustProxy !== false || !/^https:\/\//i.test(serverAddress.trim())) return null;
  return (
    `The Server address (${serverAddress.trim()}) is https but TRUST_PROXY is not set: the server cannot see ` +
    'that browsers reach it over HTTPS, so session cookies are sent without the Secure flag. Set TRUST_PROXY ' +
    "to your reverse proxy's address (or the number of proxies in front of the server)."
  );
}
