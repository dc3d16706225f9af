import { Session } from 'node:inspector';

/**
 * Asks V8 for one memory-reducing collection once the server listens, so that what start-up alone needed is
 * given back to the system now instead of ~15 s later.
 *
 * Starting the server allocates ~40 MB of short-lived objects (module evaluation, migrations, route tables);
 * so many survive that V8 grows the young generation to its largest size (two 16 MB semi-spaces) and keeps it
 * committed: ~25 MB of an idle server's RSS. An ordinary full collection (`gc()`) does not shrink it while the
 * recent allocation rate still looks high. V8's memory reducer does, but only after two 8-second timer rounds.
 * The inspector protocol's `HeapProfiler.collectGarbage` is V8's low-memory notification: a full collection
 * that also shrinks the young generation and compacts the old one. The session is in-process; no port opens.
 */
export function giveBackStartUpMemory(): Promise<void> {
  const session = new Session();
  session.connect();
  return new Promise((resolve) => {
    session.post('HeapProfiler.collectGarbage', () => {
      // Disconnecting inside the session's own callback stalls Node 20's event loop: leave it first.
      setImmediate(() => {
        session.disconnect();
        resolve();
      });
    });
  });
}
