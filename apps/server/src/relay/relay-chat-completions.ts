import type { FastifyReply, FastifyRequest } from 'fastify';
import { isInboundProtocol } from '@gatehouse/shared';
import type { ChatRequest } from '../canonical/chat';
import type { ChatProtocol } from '../canonical/translation';
import { computeReservation, computeTokenCost } from '../billing/quota-cost';
import { createTokenEstimator } from '../billing/token-counter';
import type { IngressCodec } from '../protocols/ingress-codec';
import { attemptPassThrough, attemptTranslated, type ChatCall } from './chat-lanes';
import type { Delivered } from './relay-delivery';
import { createSettlementCounter, type BilledUsage, type RelayJob } from './relay-job';
import type { RelayJsonBody } from './relay-request';
import type { RelayRuntime } from './relay-runtime';
import { runRelay } from './relay-story';

/** Canonical requests are OpenAI-shaped whatever protocol they came in: the counters read them as such. */
const asCountable = (chat: ChatRequest) => chat as unknown as Record<string, unknown>;

/**
 * What a chat answer costs: the upstream's usage, or both sides counted here when it reported none. The log
 * names the client's protocol when it is not OpenAI's chat completions, the endpoint's own.
 */
async function billChat(
  job: RelayJob,
  chat: ChatRequest,
  delivered: Delivered,
  protocol: ChatProtocol,
): Promise<BilledUsage> {
  let usage = delivered.usage;
  const notes: string[] = protocol === 'openai-chat' ? [] : [`${protocol} client`];
  if (!usage) {
    const counter = createSettlementCounter(job);
    const [promptTokens, completionTokens] = await Promise.all([
      counter.chatPrompt(asCountable(chat)),
      counter.text(delivered.completionText),
    ]);
    usage = { promptTokens, completionTokens };
    notes.push('usage counted locally');
  }
  if (delivered.interruption) notes.push(`${delivered.interruption}: billed what was produced`);
  return { usage, cost: computeTokenCost(job.pricing, usage), notes };
}

/**
 * A chat call in any protocol a codec reads (POST /v1/chat/completions with the OpenAI codec, POST
 * /v1/messages with the Anthropic one), JSON or streamed. The codec validates the body before any channel is
 * picked. Then, per attempt, the lane: a channel whose adapter speaks the client's protocol gets the client's
 * body as it is (pass-through); any other gets the canonical request through its adapter's translator, and
 * the answer comes back encoded by the codec.
 */
export async function relayChatCompletions(
  runtime: RelayRuntime,
  request: FastifyRequest<{ Body: RelayJsonBody }>,
  reply: FastifyReply,
  codec: IngressCodec,
): Promise<void> {
  const { options } = runtime.context;
  const { value: body, raw } = request.body;
  const chat = codec.decodeRequest(body);
  const model = chat.model.trim();
  const isStream = chat.stream === true;
  const call: ChatCall = {
    codec,
    body,
    raw,
    chat,
    clientHeaders: codec.readClientHeaders(request.headers),
    isStream,
    reply,
  };
  await runRelay(runtime, request, reply, {
    endpoint: 'chat',
    // Only the protocols clients speak have a codec.
    inboundProtocol: isInboundProtocol(codec.protocol) ? codec.protocol : 'openai-chat',
    model,
    isStream,
    reserve(job) {
      const promptEstimate = createTokenEstimator(model).chatPrompt(asCountable(chat));
      const maxTokens = chat.max_completion_tokens ?? chat.max_tokens ?? 0;
      const worstOutput = maxTokens * (chat.n ?? 1);
      return computeReservation(
        job.pricing,
        options.getNumber('PreConsumedQuota'),
        promptEstimate,
        worstOutput,
      );
    },
    attempt: (job, adapter) =>
      adapter.protocol === codec.protocol && adapter.passThrough
        ? attemptPassThrough(job, adapter, call, adapter.passThrough)
        : attemptTranslated(job, adapter, call),
    bill: (job, delivered) => billChat(job, chat, delivered, codec.protocol),
  });
}
