import type { FastifyBaseLogger } from 'fastify';
import { nowSeconds } from '@gatehouse/shared';
import type { AppContext } from '../context';
import { startPeriodicPrune } from '../db/periodic-prune';

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

/** Prunes the audit log in the background on the master node, hourly. */
export function startAuditPruning(context: AppContext, log: FastifyBaseLogger): void {
  startPeriodicPrune(context, log, {
    prune: () => pruneAuditLog(context),
    what: 'audit entries past LogRetentionDays',
  });
}
