import { computeReservation } from '../billing/quota-cost';
import { createTokenEstimator } from '../billing/token-counter';
import type { RelayJob } from './relay-job';

/**
 * The reservation of a call whose input is a string, a list of strings or token ids (embeddings, legacy
 * completions): its estimated input tokens, and up to `maxOutputTokens` of output (0 for embeddings).
 */
export function reserveForInput(job: RelayJob, input: unknown, maxOutputTokens: number): number {
  return computeReservation(
    job.pricing,
    job.runtime.context.options.getNumber('PreConsumedQuota'),
    createTokenEstimator(job.model).input(input),
    maxOutputTokens,
  );
}
