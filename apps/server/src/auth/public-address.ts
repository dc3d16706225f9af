import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';

/**
 * The address users reach the console at: the ServerAddress option, else the origin of this request.
 * Mailed links and OAuth redirect URIs are built on it.
 */
export function publicAddress(context: AppContext, request: FastifyRequest): string {
  const configured = context.options.get('ServerAddress').trim().replace(/\/+$/, '');
  return configured || `${request.protocol}://${request.host}`;
}
