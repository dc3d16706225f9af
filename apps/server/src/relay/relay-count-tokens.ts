import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IngressCodec, TokenCountCodec } from '../protocols/ingress-codec';
import type { JsonCapability, PassThroughRequestInput, ProviderAdapter } from '../providers/provider-types';
import { prepareChannelCredentials } from './channel-credentials';
import { callChannelForWhole, runAttempts, type AttemptOutcome } from './relay-attempts';
import { deliverJsonBody } from './relay-delivery';
import { createJobTokenCounter, startRelayJob, upstreamModelOf, type RelayJob } from './relay-job';
import type { RelayJsonBody } from './relay-request';
import type { RelayRuntime } from './relay-runtime';

interface CountCall {
  codec: IngressCodec;
  counting: TokenCountCodec;
  body: Record<string, unknown>;
  raw: Buffer;
  clientHeaders: Readonly<Record<string, string>>;
  reply: FastifyReply;
}

/** The vendor counts: the client's body forwarded to its counting endpoint, the answer sent back as it came. */
async function forwardCount(
  job: RelayJob,
  adapter: ProviderAdapter,
  call: CountCall,
  capability: JsonCapability<PassThroughRequestInput>,
): Promise<AttemptOutcome<void>> {
  const prepared = await prepareChannelCredentials(job.runtime, job.channel, adapter);
  if (!prepared.ok) return prepared;
  const upstreamModel = upstreamModelOf(job);
  const upstream = capability.buildRequest({
    channel: prepared.value,
    body: call.body,
    rawBody: call.raw,
    upstreamModel,
    isModelMapped: upstreamModel !== job.model,
    isStream: false,
    clientHeaders: call.clientHeaders,
  });
  const read = await callChannelForWhole(job, adapter, upstream);
  if (!read.ok) return read;
  const delivered = deliverJsonBody(job, call.reply, read.value, capability);
  // A count is not billed: nothing to commit before it is sent.
  job.finalWrite?.end();
  return delivered.ok ? { ok: true, value: undefined } : delivered;
}

/**
 * A token count (today Anthropic's POST /v1/messages/count_tokens). The model is checked and a channel picked
 * as for a chat, so the count answers for the model the chat would reach. A channel whose vendor speaks the
 * client's protocol and counts (Anthropic) gets the client's body; any other is not called: the tokens are
 * counted here with the settlement's counter. Counting is not billed and writes no log; a vendor's failure
 * is retried on other channels and reported to channel health like any call.
 */
export async function relayCountTokens(
  runtime: RelayRuntime,
  request: FastifyRequest<{ Body: RelayJsonBody }>,
  reply: FastifyReply,
  codec: IngressCodec & { tokenCount: TokenCountCodec },
): Promise<void> {
  const { value: body, raw } = request.body;
  const counting = codec.tokenCount;
  const chat = counting.decodeRequest(body);
  const model = chat.model.trim();
  const job = await startRelayJob(runtime, request, reply, { endpoint: 'chat', model, isStream: false });
  const call: CountCall = {
    codec,
    counting,
    body,
    raw,
    clientHeaders: codec.readClientHeaders(request.headers),
    reply,
  };
  await runAttempts(job, {
    async attempt(_job, adapter): Promise<AttemptOutcome<void>> {
      if (adapter.protocol === codec.protocol && adapter.countTokens) {
        return forwardCount(job, adapter, call, adapter.countTokens);
      }
      const counter = createJobTokenCounter(job);
      const inputTokens = await counter.chatPrompt(chat as unknown as Record<string, unknown>);
      await reply
        .code(200)
        .header('content-type', 'application/json')
        .send(counting.encodeCount(inputTokens));
      return { ok: true, value: undefined };
    },
  });
}
