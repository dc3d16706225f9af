import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Sets a signed, HTTP-only cookie the console's scripts cannot read: sent on top-level navigations from other
 * sites (`lax`, so OAuth callbacks carry it) but not on their sub-requests, `secure` when the request came over
 * HTTPS, limited to `path`, gone after `maxAgeSeconds`.
 */
export function setSignedCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  cookie: { name: string; value: string; path: string; maxAgeSeconds: number },
): void {
  reply.setCookie(cookie.name, cookie.value, {
    path: cookie.path,
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    signed: true,
    maxAge: cookie.maxAgeSeconds,
  });
}
