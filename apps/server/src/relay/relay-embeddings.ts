import type { FastifyReply, FastifyRequest } from 'fastify';
import { computeReservation, computeTokenCost } from '../billing/quota-cost';
import { createTokenEstimator } from '../billing/token-counter';
import { callChannel, runAttempts } from './relay-attempts';
import { deliverJson } from './relay-delivery';
import { relayErrors } from './relay-error';
import {
  createSettlementCounter,
  finishRelayJob,
  reserveForJob,
  startRelayJob,
  upstreamModelOf,
  type BilledUsage,
} from './relay-job';
import { readOptionalString, requireModel, type RelayJsonBody } from './relay-request';
import type { RelayRuntime } from './relay-runtime';

/** OpenAI's moderation endpoint picks this model when the request names none. */
const DEFAULT_MODERATION_MODEL = 'omni-moderation-latest';

/**
 * POST /v1/embeddings and POST /v1/moderations: input only, billed on prompt tokens.
 * Read the model → pick a channel → estimate the input → reserve → call (retrying other channels) → send the
 * answer → settle and log, or refund.
 */
export async function relayEmbeddings(
  runtime: RelayRuntime,
  request: FastifyRequest<{ Body: RelayJsonBody }>,
  reply: FastifyReply,
  capability: 'embeddings' | 'moderations',
): Promise<void> {
  const { options } = runtime.context;
  const { value: body, raw } = request.body;
  const model =
    capability === 'moderations'
      ? (readOptionalString(body, 'model') ?? DEFAULT_MODERATION_MODEL)
      : requireModel(body);
  if (body.input === undefined || body.input === null)
    throw relayErrors.invalidRequest('input is required', 'input');
  const job = await startRelayJob(runtime, request, reply, { capability, model, isStream: false });

  const promptEstimate = createTokenEstimator(model).input(body.input);
  await reserveForJob(
    job,
    computeReservation(job.pricing, options.getNumber('PreConsumedQuota'), promptEstimate, 0),
  );

  let billed: BilledUsage | null = null;
  try {
    const answer = await runAttempts(job, async (adapter) => {
      // runAttempts only calls with an adapter that has the capability.
      const endpoint = adapter[capability]!;
      const upstreamModel = upstreamModelOf(job);
      const upstream = endpoint.buildRequest({
        channel: job.channel.credentials,
        body,
        rawBody: raw,
        upstreamModel,
        isModelMapped: upstreamModel !== model,
      });
      const called = await callChannel(job, adapter, upstream);
      return called.ok ? deliverJson(job, reply, called.value, endpoint) : called;
    });
    let usage = answer.usage;
    if (!usage) {
      const counter = await createSettlementCounter(job);
      usage = { promptTokens: counter.input(body.input), completionTokens: 0 };
    }
    billed = {
      usage,
      cost: computeTokenCost(job.pricing, usage),
      notes: answer.usage ? [] : ['usage counted locally'],
    };
  } finally {
    await finishRelayJob(job, billed);
  }
}
