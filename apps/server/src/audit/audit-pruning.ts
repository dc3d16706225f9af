import type { FastifyBaseLogger } from 'fastify';
import { nowSeconds } from '@gatehouse/shared';
import type { AppContext } from '../context';

const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** The first run waits a little, so a start is not slowed by a backlog. */
const FIRST_RUN_AFTER_MS = 30 * 1000;
const BATCH_SIZE = 500;
/** per run: a backlog (retention shortened) is worked off over several runs without one long lock */
const MAX_BATCHES = 20;

/**
 * Deletes audit entries older than LogRetentionDays (the logs' retention rule), a batch at a time; 0 keeps
 * everything. Answers how many went.
 */
export async function pruneAuditLog(context: Pick<AppContext, 'db' | 'options'>): Promise<number> {
  const days = context.options.getNumber('LogRetentionDays');
  if (!(days > 0)) return 0;
  const before = nowSeconds() - days * 86_400;
  let deleted = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
    // Ids first, then delete by id: MySQL refuses a LIMIT inside an IN subquery.
    const rows = await context.db
      .selectFrom('audit_log')
      .select('id')
      .where('created_at', '<', before)
      .limit(BATCH_SIZE)
      .execute();
    if (rows.length === 0) break;
    await context.db
      .deleteFrom('audit_log')
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
    deleted += rows.length;
    if (rows.length < BATCH_SIZE) break;
  }
  return deleted;
}

/** Prunes in the background on the master node only (one instance is enough): soon after the start, then hourly. */
export function startAuditPruning(context: AppContext, log: FastifyBaseLogger): void {
  if (!context.config.isMasterNode) return;
  let running: Promise<void> | null = null;
  const prune = () => {
    // A slow run is never overlapped by the next one.
    running ??= pruneAuditLog(context)
      .then((deleted) => {
        if (deleted > 0) log.info({ deleted }, 'pruned old audit entries');
      })
      .catch((error: unknown) => log.error({ err: error }, 'pruning the audit log failed'))
      .finally(() => (running = null));
  };
  const first = setTimeout(prune, FIRST_RUN_AFTER_MS);
  const timer = setInterval(prune, PRUNE_EVERY_MS);
  first.unref();
  timer.unref();
  // The database closes after the closers ran: a run under way finishes first.
  context.closers.push(async () => {
    clearTimeout(first);
    clearInterval(timer);
    await running;
  });
}
