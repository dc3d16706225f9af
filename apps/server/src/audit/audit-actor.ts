import type { FastifyRequest } from 'fastify';
import { currentUser } from '../http/auth';
import type { AuditActor } from './audit-log';

/**
 * The signed-in user of a guarded request and its client address. `request.ip` follows TRUST_PROXY like the
 * rate limits do: behind a trusted proxy it is the client's address from X-Forwarded-For.
 */
export function auditActorOf(request: FastifyRequest): AuditActor {
  const user = currentUser(request);
  return { id: user.id, name: user.username, ip: request.ip };
}
