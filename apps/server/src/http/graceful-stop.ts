import type { FastifyInstance } from 'fastify';

/** While stopping, how often the connections whose answers have ended are closed. */
const IDLE_SWEEP_MS = 100;
/**
 * How long a stopping process has, once SHUTDOWN_TIMEOUT closed the connections left, to settle their answers
 * and close; past it the process is ended (by itself, or killed by the cluster's primary).
 */
export const SETTLE_AFTER_CUT_MS = 10_000;

/**
 * Stops taking connections and resolves once every answer under way has ended: on the server's own connections
 * (app.close()) and on those its extra acceptors took (`stopAcceptors`, see acceptors.ts).
 *
 * A kept-alive connection whose answer ends meanwhile would otherwise stay open for a next request until
 * KEEP_ALIVE_TIMEOUT (65 s behind a load balancer) and hold the exit that long: each is closed as soon as it is
 * idle (Node closes the idle ones only once, when the close begins; a request arriving meanwhile is answered 503
 * by Fastify). Answers still under way after `graceMs` (SHUTDOWN_TIMEOUT: a stream that does not end) have
 * their connections closed: the relay sees its client gone, cancels the upstream call and settles what was
 * delivered, as for any client that leaves — rather than be killed by a supervisor with its reservation open.
 */
export async function drainServer(
  app: FastifyInstance,
  stopAcceptors: () => Promise<void>,
  graceMs: number,
): Promise<void> {
  const sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
  const cut = setTimeout(() => {
    app.log.warn(
      `answers still under way ${graceMs / 1000} s after the stop began (SHUTDOWN_TIMEOUT): closing their ` +
        'connections; each is billed for what it delivered',
    );
    app.server.closeAllConnections();
  }, graceMs);
  try {
    await Promise.all([stopAcceptors(), app.close()]);
  } finally {
    clearInterval(sweep);
    clearTimeout(cut);
  }
}
