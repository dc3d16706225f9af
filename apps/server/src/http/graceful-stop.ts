import type { FastifyInstance } from 'fastify';

/** While stopping, how often the connections whose answers have ended are closed. */
const IDLE_SWEEP_MS = 100;

/**
 * Stops taking connections and resolves once every answer under way has ended: on the server's own connections
 * (app.close()) and on those its extra acceptors took (`stopAcceptors`, see acceptors.ts). A kept-alive
 * connection whose answer ends meanwhile would otherwise stay open for a next request until KEEP_ALIVE_TIMEOUT
 * (65 s behind a load balancer) and hold the exit that long: each is closed as soon as it is idle (Node closes
 * the idle ones only once, when the close begins; a request arriving meanwhile is answered 503 by Fastify).
 */
export async function drainServer(app: FastifyInstance, stopAcceptors: () => Promise<void>): Promise<void> {
  const sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
  try {
    await Promise.all([stopAcceptors(), app.close()]);
  } finally {
    clearInterval(sweep);
  }
}
