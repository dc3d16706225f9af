import type { FastifyBaseLogger } from 'fastify';
import { nowSeconds } from '@gatehouse/shared';
import type { AppContext } from '../context';
import { deleteStoredResponsesBefore } from './stored-response-repository';

const PRUNE_EVERY_MS = 10 * 60 * 1000;
const BATCH_SIZE = 500;
/** per run: a backlog (retention shortened, a long outage) is worked off over several runs */
const MAX_BATCHES = 20;

/** Deletes stored responses past ResponsesRetentionDays, a batch at a time; answers how many. */
export async function pruneStoredResponses(context: Pick<AppContext, 'db' | 'options'>): Promise<number> {
  const before = nowSeconds() - context.options.getNumber('ResponsesRetentionDays') * 86_400;
  let deleted = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
    const count = await deleteStoredResponsesBefore(context.db, before, BATCH_SIZE);
    deleted += count;
    if (count < BATCH_SIZE) break;
  }
  return deleted;
}

/**
 * Prunes expired responses in the background, on the master node only (one instance is enough), whether
 * storage is on or not: turning it off must not keep old conversations forever.
 */
export function startStoredResponsePruning(context: AppContext, log: FastifyBaseLogger): void {
  if (!context.config.isMasterNode) return;
  const prune = () =>
    pruneStoredResponses(context)
      .then((deleted) => {
        if (deleted > 0) log.info({ deleted }, 'pruned expired stored responses');
      })
      .catch((error: unknown) => log.error({ err: error }, 'pruning stored responses failed'));
  const timer = setInterval(prune, PRUNE_EVERY_MS);
  timer.unref();
  context.closers.push(() => clearInterval(timer));
}
