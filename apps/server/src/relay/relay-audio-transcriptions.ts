import type { FastifyReply, FastifyRequest } from 'fastify';
import { computeReservation, computeTokenCost } from '../billing/quota-cost';
import type { ReadResponse } from '../providers/provider-types';
import { parseMultipart, readBoundary, readTextPart, replaceTextPart } from './multipart-form';
import { buildChannelRequest } from './build-upstream-request';
import { callChannel, type AttemptOutcome } from './relay-attempts';
import { holdWholeAnswer, readWholeAnswer } from './relay-delivery';
import { relayErrors } from './relay-error';
import { createSettlementCounter, upstreamModelOf } from './relay-job';
import type { RelayMultipartBody } from './relay-request';
import type { RelayRuntime } from './relay-runtime';
import { runRelay } from './relay-story';
import { headerText } from './upstream-call';

/**
 * POST /v1/audio/transcriptions and /v1/audio/translations (multipart). The upload is forwarded as it came,
 * with only the model field rewritten when the channel maps it. Billed on the usage the answer reports
 * (gpt-4o-transcribe), else on the transcript's tokens (whisper-1).
 */
export async function relayAudioTranscriptions(
  runtime: RelayRuntime,
  request: FastifyRequest<{ Body: RelayMultipartBody }>,
  reply: FastifyReply,
  endpoint: 'audioTranscriptions' | 'audioTranslations',
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
  await runRelay(runtime, request, reply, {
    endpoint,
    model,
    isStream: false,
    reserve: (job) => computeReservation(job.pricing, options.getNumber('PreConsumedQuota'), 0, 0),
    async attempt(job, adapter): Promise<AttemptOutcome<ReadResponse>> {
      // runAttempts only calls with an adapter that has the capability.
      const capability = adapter[endpoint]!;
      const upstreamModel = upstreamModelOf(job);
      const modelPart = parts.find((part) => part.name === 'model' && part.filename === null);
      const rawBody =
        upstreamModel !== model && modelPart ? replaceTextPart(raw, modelPart, upstreamModel) : raw;
      const built = await buildChannelRequest(job, adapter, (channel) =>
        capability.buildRequest({ channel, rawBody, contentType, upstreamModel }),
      );
      if (!built.ok) return built;
      const called = await callChannel(job, adapter, built.value);
      if (!called.ok) return called;
      const read = await readWholeAnswer(job, called.value);
      if (!read.ok) return read;
      const answerContentType = headerText(called.value.headers, 'content-type') || 'application/json';
      const answer = capability.readResponse(read.value, answerContentType);
      holdWholeAnswer(job, reply, answer.body, answerContentType);
      return { ok: true, value: answer };
    },
    async bill(job, answer) {
      let usage = answer.usage;
      if (!usage) {
        const counter = createSettlementCounter(job);
        usage = { promptTokens: 0, completionTokens: await counter.text(answer.completionText) };
      }
      return {
        usage,
        cost: computeTokenCost(job.pricing, usage),
        notes: answer.usage ? [] : ['billed on transcript tokens'],
      };
    },
  });
}
