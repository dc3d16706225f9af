import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context';

const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** The first run waits a little, so a start is not slowed by a backlog. */
const FIRST_RUN_AFTER_MS = 30 * 1000;

export interface PeriodicPrune {
  /** deletes what is past its retention; answers how many rows went. `shouldStop` turns true when closing */
  prune: (shouldStop: () => boolean) => Promise<number>;
  /** what is pruned, for the log lines: "consumption logs past LogRetentionDays" */
  what: string;
}

/**
 * Runs a pruning job in the background on the master node only (one instance is enough): shortly after the
 * start, then every hour. A run still going is never overlapped by the next, and closing the server waits
 * for it (the database closes after the closers ran).
 */
export function startPeriodicPrune(
  context: Pick<AppContext, 'config' | 'closers'>,
  log: FastifyBaseLogger,
  { prune, what }: PeriodicPrune,
): void {
  if (!context.config.isMasterNode) return;
  let isClosed = false;
  let running: Promise<void> | null = null;
  const run = () => {
    running ??= prune(() => isClosed)
      .then((deleted) => {
        if (deleted > 0) log.info({ deleted }, `pruned ${what}`);
      })
      .catch((error: unknown) => log.error({ err: error }, `pruning ${what} failed`))
      .finally(() => (running = null));
  };
  const first = setTimeout(run, FIRST_RUN_AFTER_MS);
  const timer = setInterval(run, PRUNE_EVERY_MS);
  first.unref();
  timer.unref();
  context.closers.push(async () => {
    isClosed = true;
    clearTimeout(first);
    clearInterval(timer);
    await running;
  });
}
