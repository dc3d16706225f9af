import type { FastifyReply, FastifyRequest } from 'fastify';
import type { InboundProtocol } from '@gatehouse/shared';
import type { ProviderAdapter, RelayEndpoint } from '../providers/provider-types';
import { runAttempts, type AttemptOutcome } from './relay-attempts';
import { finishRelayJob, reserveForJob, startRelayJob, type BilledUsage, type RelayJob } from './relay-job';
import { admitRelayJob } from './relay-limits';
import type { RelayRuntime } from './relay-runtime';

/** What one /v1 endpoint does at each step of the story; the story itself is the same for all of them. */
export interface RelayPlan<Delivered> {
  readonly endpoint: RelayEndpoint;
  /** the API the client called, for the log; the endpoint's OpenAI route when absent */
  readonly inboundProtocol?: InboundProtocol;
  /** the model the client asked for: priced, logged and matched against abilities under this name */
  readonly model: string;
  readonly isStream: boolean;
  /** the quota to hold before anything is sent: the worst case when the request bounds it */
  reserve(job: RelayJob): number;
  /** one try on the job's current channel: build the upstream request, call it, deliver the answer */
  attempt(job: RelayJob, adapter: ProviderAdapter): Promise<AttemptOutcome<Delivered>>;
  /** what the delivered answer costs */
  bill(job: RelayJob, delivered: Delivered): BilledUsage | Promise<BilledUsage>;
}

/**
 * Every /v1 call, once its body has been validated (bad input is answered before any of this):
 *
 * 1. the key may use the model, a channel in one of the owner's groups serves it, and the model has a price;
 * 2. admit it under the key's and the owner's rate limits, parallel slots and budget (relay-limits.ts), or
 *    answer 429; then reserve the quota the call may cost, on the user and the key, or refuse it before
 *    anything is sent (what the admission counted is given back in finishRelayJob either way);
 * 3. attempt on the channel, then on others when the failure is one another channel may not have
 *    (relay-attempts.ts); the answer is delivered to the client inside the attempt, as it streams;
 * 4. bill what was delivered, from the upstream's usage or counted here;
 * 5. settle the exact cost and write one consumption log — or, when nothing was delivered, refund it all.
 */
export async function runRelay<Delivered>(
  runtime: RelayRuntime,
  request: FastifyRequest,
  reply: FastifyReply,
  plan: RelayPlan<Delivered>,
): Promise<void> {
  const job = await startRelayJob(runtime, request, reply, plan);
  const reserved = plan.reserve(job);
  await admitRelayJob(job, reply, reserved);
  let billed: BilledUsage | null = null;
  try {
    await reserveForJob(job, reserved);
    const delivered = await runAttempts(job, (adapter) => plan.attempt(job, adapter));
    billed = await plan.bill(job, delivered);
  } finally {
    await finishRelayJob(job, billed);
  }
}
