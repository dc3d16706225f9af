import type { FastifyReply } from 'fastify';
import type { ChatRequest } from '../canonical/chat';
import { UpstreamFormatError } from '../canonical/translation';
import type { IngressCodec } from '../protocols/ingress-codec';
import type { PassThroughCapability, ProviderAdapter } from '../providers/provider-types';
import { withAnswerModel } from './answer-model';
import { buildRequestOf, buildUpstreamRequest } from './build-upstream-request';
import { prepareChannelCredentials } from './channel-credentials';
import { callChannelForStream, callChannelForWhole, type AttemptOutcome } from './relay-attempts';
import {
  deliverJsonBody,
  deliverStream,
  deliverTranslatedJson,
  deliverWholeStream,
  readWholeStreamedAnswer,
  type Delivered,
} from './relay-delivery';
import { upstreamModelOf, type RelayJob } from './relay-job';
import { createPassThroughTranscoder, createTranslatedTranscoder } from './stream-transcoders';
import { headerText } from './upstream-call';

/** One chat call as both lanes need it: the client's own body and its canonical reading. */
export interface ChatCall {
  codec: IngressCodec;
  /** the client's body, parsed, and its bytes: what the pass-through lane forwards */
  body: Record<string, unknown>;
  raw: Buffer;
  /** the same request decoded by the codec: what the translated lane translates */
  chat: ChatRequest;
  clientHeaders: Readonly<Record<string, string>>;
  isStream: boolean;
  reply: FastifyReply;
}

/**
 * The pass-through lane: the client speaks the vendor's protocol, so its body goes upstream with only the
 * model and the key changed, and the answer comes back as the upstream's bytes while usage is read on the
 * side. Also the legacy completions endpoint, which only OpenAI-compatible vendors have.
 */
export async function attemptPassThrough(
  job: RelayJob,
  adapter: ProviderAdapter,
  call: ChatCall,
  capability: PassThroughCapability,
): Promise<AttemptOutcome<Delivered>> {
  // No await on the fast path: only adapters that derive a token wait for one.
  let channel = job.channel.credentials;
  if (adapter.prepareCredential) {
    const prepared = await prepareChannelCredentials(job.runtime, job.channel, adapter);
    if (!prepared.ok) return prepared;
    channel = prepared.value;
  }
  const upstreamModel = upstreamModelOf(job);
  const upstream = buildRequestOf(capability, {
    channel,
    body: call.body,
    rawBody: call.raw,
    upstreamModel,
    isModelMapped: upstreamModel !== job.model,
    isStream: call.isStream,
    clientHeaders: call.clientHeaders,
  });
  if (!call.isStream) {
    const read = await callChannelForWhole(job, adapter, upstream);
    return read.ok ? deliverJsonBody(job, call.reply, read.value, capability) : read;
  }
  const called = await callChannelForStream(job, adapter, upstream);
  if (!called.ok) return called;
  const response = called.value;
  const options = { clientWantsUsage: call.chat.stream_options?.include_usage === true };
  if (headerText(response.headers, 'content-type').includes('json')) {
    // Some OpenAI-compatible servers ignore `stream: true` and answer JSON: send it as the stream asked for.
    if (!capability.answerAsEvents) throw new UpstreamFormatError('a JSON answer to a stream request');
    const read = await readWholeStreamedAnswer(job, response);
    if (!read.ok) return read;
    const answer = capability.readResponse(read.value);
    const events = capability.answerAsEvents(answer, options);
    const text = events.map((event) => `${event.raw}\n\n`).join('') + call.codec.streamEnd;
    return deliverWholeStream(job, call.reply, text, answer);
  }
  const reader = capability.createStreamReader(options);
  return deliverStream(
    job,
    call.reply,
    response,
    createPassThroughTranscoder(reader, call.codec, job.requestId),
  );
}

/**
 * The translated lane: the canonical request encoded for the vendor by its adapter, the vendor's answer or
 * stream decoded into canonical chunks and encoded in the client's protocol, event by event. An option the
 * vendor lacks is refused by the translator before anything is sent.
 */
export async function attemptTranslated(
  job: RelayJob,
  adapter: ProviderAdapter,
  call: ChatCall,
): Promise<AttemptOutcome<Delivered>> {
  // No await on the fast path: only adapters that derive a token wait for one.
  const prepared = adapter.prepareCredential
    ? await prepareChannelCredentials(job.runtime, job.channel, adapter)
    : ({ ok: true, value: job.channel.credentials } as const);
  if (!prepared.ok) return prepared;
  const upstream = await buildUpstreamRequest(() =>
    adapter.translator.buildRequest({
      channel: prepared.value,
      request: call.chat,
      upstreamModel: upstreamModelOf(job),
      isStream: call.isStream,
      clientHeaders: call.clientHeaders,
    }),
  );
  const translator = withAnswerModel(adapter.translator, job.model);
  if (!call.isStream) {
    const read = await callChannelForWhole(job, adapter, upstream);
    return read.ok ? deliverTranslatedJson(job, call.reply, read.value, translator, call.codec) : read;
  }
  const called = await callChannelForStream(job, adapter, upstream);
  if (!called.ok) return called;
  const transcoder = createTranslatedTranscoder(
    translator.createStreamDecoder(),
    call.codec.createStreamEncoder(call.chat),
    call.codec,
    job.requestId,
  );
  return deliverStream(job, call.reply, called.value, transcoder);
}
