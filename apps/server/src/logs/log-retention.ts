import type { FastifyBaseLogger } from 'fastify';
import { nowSeconds } from '@gatehouse/shared';
import type { AppContext } from '../context';
import { PRUNED_LOG_TYPES, dropExpiredLogPartitions, ensureLogPartitions } from '../db/log-partitions';
import { startPeriodicPrune } from '../db/periodic-prune';

export interface LogPruneOptions {
  /** rows per DELETE: small, so each statement holds its locks only briefly */
  batchSize?: number;
  /** rest between two DELETEs, so settlements and log reads get the database in between */
  pauseMs?: number;
  /** stop early (the server is closing) */
  shouldStop?: () => boolean;
}

export interface LogPruneResult {
  deleted: number;
  batches: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Deletes consumption and error log rows older than LogRetentionDays, a small batch at a time with a pause
 * between batches, until none is left. 0 (the default) keeps every row. On PostgreSQL a month partition wholly
 * past the retention is dropped first (its kept rows moved to the default partition); the batches then take
 * what is left: the month the cut falls in and the default partition. The usage rollups are not touched:
 * the dashboard keeps its history after the detailed rows are gone.
 */
export async function pruneConsumptionLogs(
  context: Pick<AppContext, 'db' | 'options'>,
  { batchSize = 1000, pauseMs = 200, shouldStop = () => false }: LogPruneOptions = {},
): Promise<LogPruneResult> {
  const result: LogPruneResult = { deleted: 0, batches: 0 };
  const days = context.options.getNumber('LogRetentionDays');
  if (!(days > 0)) return result;
  const before = nowSeconds() - days * 86_400;
  result.deleted += await dropExpiredLogPartitions(context.db, before);
  while (!shouldStop()) {
    // Ids first, then delete by id: MySQL refuses a LIMIT inside an IN subquery.
    const rows = await context.db
      .selectFrom('logs')
      .select('id')
      .where('created_at', '<', before)
      .where('type', 'in', PRUNED_LOG_TYPES)
      .limit(batchSize)
      .execute();
    if (rows.length === 0) break;
    await context.db
      .deleteFrom('logs')
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
    result.deleted += rows.length;
    result.batches += 1;
    if (rows.length < batchSize) break;
    await sleep(pauseMs);
  }
  return result;
}

/** Prunes consumption and error logs in the background on the master node, hourly. */
export function startLogRetention(context: AppContext, log: FastifyBaseLogger): void {
  startPeriodicPrune(context, log, {
    prune: async (shouldStop) => {
      await ensureLogPartitions(context.db, nowSeconds());
      return (await pruneConsumptionLogs(context, { shouldStop })).deleted;
    },
    what: 'consumption logs past LogRetentionDays',
  });
}
