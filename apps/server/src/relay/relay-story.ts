import type { FastifyReply, FastifyRequest } from 'fastify';
import type { InboundProtocol } from '@gatehouse/shared';
import type { ProviderAdapter, RelayEndpoint } from '../providers/provider-types';
import { runAttempts, type AttemptOutcome } from './relay-attempts';
import {
  endpointProtocols,
  findCallCost,
  finishRelayJob,
  reserveForJob,
  startRelayJob,
  type BilledUsage,
  type RelayJob,
} from './relay-job';
import { recordRelayFailure } from './relay-failure-log';
import { admitRelayJob } from './relay-limits';
import { observeRelay, type RelayObservation } from '../observability/relay-observation';
import { getTelemetry } from '../observability/telemetry';
import { RelayError, relayErrors } from './relay-error';
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
 * 4. bill what was delivered, from the upstream's usage or counted here — a model priced per call reserves and
 *    is billed its call price instead, whatever the endpoint would count;
 * 5. settle the exact cost and write one consumption log — or, when nothing was delivered, refund it all.
 */
export async function runRelay<Delivered>(
  runtime: RelayRuntime,
  request: FastifyRequest,
  reply: FastifyReply,
  plan: RelayPlan<Delivered>,
): Promise<void> {
  const observation = observeRelay(getTelemetry(runtime.context), request, {
    model: plan.model,
    inboundProtocol: plan.inboundProtocol ?? endpointProtocols[plan.endpoint],
    isStream: plan.isStream,
    caller: request.relayCaller,
    receivedAt: request.relayReceivedAt,
    authenticatedAt: request.relayAuthenticatedAt,
  });
  runtime.stories.enter();
  try {
    await tellStory(runtime, request, reply, plan, observation);
    observation.finished(200);
  } catch (error) {
    observation.finished(error instanceof RelayError ? error.statusCode : 500);
    throw error;
  } finally {
    runtime.stories.leave();
  }
}

/** The story itself, told to the request's observation at its seams. */
async function tellStory<Delivered>(
  runtime: RelayRuntime,
  request: FastifyRequest,
  reply: FastifyReply,
  plan: RelayPlan<Delivered>,
  observation: RelayObservation,
): Promise<void> {
  const job = await startRelayJob(runtime, request, reply, plan);
  job.observation = observation;
  observation.picked(job.channel);
  const callCost = findCallCost(job);
  const reserved = callCost ?? plan.reserve(job);
  // Beyond 2^53 quota (billions of dollars) no balance, limit or database column can hold the worst case.
  if (!Number.isSafeInteger(reserved)) {
    throw relayErrors.invalidRequest(
      'This request could cost more than any balance can hold: ask for fewer output tokens',
    );
  }
  await admitRelayJob(job, reply, reserved);
  let billed: BilledUsage | null = null;
  let isReserved = false;
  try {
    await reserveForJob(job, reserved);
    isReserved = true;
    const delivered = await runAttempts(job, plan);
    const usage = await plan.bill(job, delivered);
    billed = callCost === null ? usage : { usage: usage.usage, cost: callCost, notes: usage.notes };
  } catch (error) {
    if (isReserved) recordRelayFailure(job, error);
    throw error;
  } finally {
    observation.settling(billed);
    await finishRelayJob(job, billed);
  }
}
