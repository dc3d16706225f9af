import type { FastifyReply, FastifyRequest } from 'fastify';
import { computeReservation, computeTokenCost } from '../billing/quota-cost';
import { createTokenEstimator, type TokenCounter } from '../billing/token-counter';
import type { TokenUsage } from '../providers/provider-types';
import { callChannel, runAttempts } from './relay-attempts';
import { deliverJson, deliverStream } from './relay-delivery';
import {
  createSettlementCounter,
  finishRelayJob,
  reserveForJob,
  startRelayJob,
  upstreamModelOf,
  type BilledUsage,
  type RelayJob,
} from './relay-job';
import { readPositiveInteger, requireModel, type RelayJsonBody } from './relay-request';
import { relayErrors } from './relay-error';
import type { RelayRuntime } from './relay-runtime';

/** OpenAI's legacy completions default to 16 tokens when max_tokens is absent. */
const COMPLETIONS_DEFAULT_MAX_TOKENS = 16;

function wantsStreamUsage(body: Record<string, unknown>): boolean {
  const options = body.stream_options;
  return (
    typeof options === 'object' &&
    options !== null &&
    (options as { include_usage?: unknown }).include_usage === true
  );
}

function countPrompt(
  counter: TokenCounter,
  capability: 'chat' | 'completions',
  body: RelayJsonBody['value'],
) {
  return capability === 'chat' ? counter.chatPrompt(body) : counter.input(body.prompt);
}

/** The upstream reported no usage (or the client left before it came): count both sides here. */
async function countUsageLocally(
  job: RelayJob,
  capability: 'chat' | 'completions',
  body: RelayJsonBody['value'],
  completionText: string,
): Promise<TokenUsage> {
  const counter = await createSettlementCounter(job);
  return {
    promptTokens: countPrompt(counter, capability, body),
    completionTokens: counter.text(completionText),
  };
}

/**
 * POST /v1/chat/completions and the legacy POST /v1/completions, JSON or streamed.
 *
 * The story: read the model → pick a channel → estimate the prompt (leaning high, no tokenizer) → reserve the
 * worst case → build the upstream request with the channel's adapter → call it → on failure retry on the next
 * channel (the reservation stays) → stream or send the answer → settle what it cost (counting tokens only when
 * the upstream reported no usage) and write one log, or refund everything.
 */
export async function relayChatCompletions(
  runtime: RelayRuntime,
  request: FastifyRequest<{ Body: RelayJsonBody }>,
  reply: FastifyReply,
  capability: 'chat' | 'completions',
): Promise<void> {
  const { options } = runtime.context;
  const { value: body, raw } = request.body;
  const model = requireModel(body);
  if (capability === 'chat' && (!Array.isArray(body.messages) || body.messages.length === 0)) {
    throw relayErrors.invalidRequest('messages must be a non-empty array', 'messages');
  }
  if (capability === 'completions' && body.prompt === undefined) {
    throw relayErrors.invalidRequest('prompt is required', 'prompt');
  }
  const isStream = body.stream === true;
  const job = await startRelayJob(runtime, request, reply, { capability, model, isStream });

  const promptEstimate = countPrompt(createTokenEstimator(model), capability, body);
  const maxTokens =
    readPositiveInteger(body, 'max_completion_tokens') ??
    readPositiveInteger(body, 'max_tokens') ??
    (capability === 'completions' ? COMPLETIONS_DEFAULT_MAX_TOKENS : 0);
  const choices = readPositiveInteger(body, 'n') ?? 1;
  await reserveForJob(
    job,
    computeReservation(
      job.pricing,
      options.getNumber('PreConsumedQuota'),
      promptEstimate,
      maxTokens * choices,
    ),
  );

  let billed: BilledUsage | null = null;
  try {
    const answer = await runAttempts(job, async (adapter) => {
      // runAttempts only calls with an adapter that has the capability.
      const text = capability === 'chat' ? adapter.chat : adapter.completions!;
      const upstreamModel = upstreamModelOf(job);
      const upstream = text.buildRequest({
        channel: job.channel.credentials,
        body,
        rawBody: raw,
        upstreamModel,
        isModelMapped: upstreamModel !== model,
        isStream,
      });
      const called = await callChannel(job, adapter, upstream);
      if (!called.ok) return called;
      if (!isStream) return deliverJson(job, reply, called.value, text);
      const clientWantsUsage = wantsStreamUsage(body);
      return deliverStream(job, reply, called.value, text.createStreamReader({ clientWantsUsage }), {
        capability: text,
        clientWantsUsage,
      });
    });
    const usage = answer.usage ?? (await countUsageLocally(job, capability, body, answer.completionText));
    const notes = answer.usage ? [] : ['usage counted locally'];
    if (answer.interruption) notes.push(`${answer.interruption}: billed what was produced`);
    billed = { usage, cost: computeTokenCost(job.pricing, usage), notes };
  } finally {
    await finishRelayJob(job, billed);
  }
}
