import type { FastifyReply, FastifyRequest } from 'fastify';
import { computeReservation, computeTokenCost } from '../billing/quota-cost';
import { callChannel, runAttempts } from './relay-attempts';
import { relayErrors } from './relay-error';
import {
  createSettlementCounter,
  finishRelayJob,
  reserveForJob,
  startRelayJob,
  upstreamModelOf,
  type BilledUsage,
} from './relay-job';
import type { RelayMultipartBody } from './relay-request';
import { parseMultipart, readBoundary, readTextPart, replaceTextPart } from './multipart-form';
import { headerText, readUpstreamBody } from './upstream-call';
import { describeConnectionFailure } from './upstream-failure';
import type { RelayRuntime } from './relay-runtime';

/**
 * POST /v1/audio/transcriptions and /v1/audio/translations (multipart). The upload is forwarded as it came,
 * with only the model field rewritten when the channel maps it. Billed on the usage the answer reports
 * (gpt-4o-transcribe), else on the transcript's tokens (whisper-1).
 */
export async function relayAudioTranscriptions(
  runtime: RelayRuntime,
  request: FastifyRequest<{ Body: RelayMultipartBody }>,
  reply: FastifyReply,
  capability: 'audioTranscriptions' | 'audioTranslations',
): Promise<void> {
  const { options } = runtime.context;
  const { raw } = request.body;
  const contentType = request.headers['content-type'] ?? '';
  const boundary = readBoundary(contentType);
  const parts = boundary ? parseMultipart(raw, boundary) : null;
  if (!parts)
    throw relayErrors.invalidRequest('The request must be multipart/form-data with a file and a model');
  if (!parts.some((part) => part.name === 'file' && part.filename !== null)) {
    throw relayErrors.invalidRequest('file is required', 'file');
  }
  const model = readTextPart(raw, parts, 'model')?.trim();
  if (!model) throw relayErrors.invalidRequest('You must provide a model parameter', 'model');
  const job = await startRelayJob(runtime, request, reply, { capability, model, isStream: false });
  await reserveForJob(job, computeReservation(job.pricing, options.getNumber('PreConsumedQuota'), 0, 0));

  let billed: BilledUsage | null = null;
  try {
    const answer = await runAttempts(job, async (adapter) => {
      // runAttempts only calls with an adapter that has the capability.
      const endpoint = adapter[capability]!;
      const upstreamModel = upstreamModelOf(job);
      const modelPart = parts.find((part) => part.name === 'model' && part.filename === null);
      const rawBody =
        upstreamModel !== model && modelPart ? replaceTextPart(raw, modelPart, upstreamModel) : raw;
      const upstream = endpoint.buildRequest({
        channel: job.channel.credentials,
        rawBody,
        contentType,
        upstreamModel,
      });
      const called = await callChannel(job, adapter, upstream);
      if (!called.ok) return called;
      let body: Buffer;
      try {
        body = await readUpstreamBody(called.value);
      } catch (error) {
        return { ok: false, failure: describeConnectionFailure(error) };
      }
      const answerContentType = headerText(called.value.headers, 'content-type') || 'application/json';
      const read = endpoint.readResponse(body, answerContentType);
      await reply.code(200).header('content-type', answerContentType).send(read.body);
      return { ok: true, value: read };
    });
    let usage = answer.usage;
    if (!usage) {
      const counter = await createSettlementCounter(job);
      usage = { promptTokens: 0, completionTokens: counter.text(answer.completionText) };
    }
    billed = {
      usage,
      cost: computeTokenCost(job.pricing, usage),
      notes: answer.usage ? [] : ['billed on transcript tokens'],
    };
  } finally {
    await finishRelayJob(job, billed);
  }
}
