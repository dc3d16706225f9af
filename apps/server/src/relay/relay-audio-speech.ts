import type { FastifyReply, FastifyRequest } from 'fastify';
import { computeTokenCost } from '../billing/quota-cost';
import { callChannel, runAttempts } from './relay-attempts';
import { relayErrors } from './relay-error';
import { finishRelayJob, reserveForJob, startRelayJob, upstreamModelOf, type BilledUsage } from './relay-job';
import { readOptionalString, requireModel, type RelayJsonBody } from './relay-request';
import { headerText } from './upstream-call';
import type { RelayRuntime } from './relay-runtime';

/** https://platform.openai.com/docs/api-reference/audio/createSpeech */
const MAX_SPEECH_CHARACTERS = 4096;

/**
 * POST /v1/audio/speech. Speech is priced per input character, so the reservation is the exact cost; the
 * audio is streamed to the client as it arrives.
 */
export async function relayAudioSpeech(
  runtime: RelayRuntime,
  request: FastifyRequest<{ Body: RelayJsonBody }>,
  reply: FastifyReply,
): Promise<void> {
  const { value: body, raw } = request.body;
  const model = requireModel(body);
  const input = readOptionalString(body, 'input');
  if (!input) throw relayErrors.invalidRequest('input is required', 'input');
  if (input.length > MAX_SPEECH_CHARACTERS) {
    throw relayErrors.invalidRequest(`input must be at most ${MAX_SPEECH_CHARACTERS} characters`, 'input');
  }
  const job = await startRelayJob(runtime, request, reply, {
    capability: 'audioSpeech',
    model,
    isStream: false,
  });
  const usage = { promptTokens: input.length, completionTokens: 0 };
  const cost = computeTokenCost(job.pricing, usage);
  await reserveForJob(job, cost);

  let billed: BilledUsage | null = null;
  try {
    await runAttempts(job, async (adapter) => {
      // runAttempts only calls with an adapter that has the capability.
      const endpoint = adapter.audioSpeech!;
      const upstreamModel = upstreamModelOf(job);
      const upstream = endpoint.buildRequest({
        channel: job.channel.credentials,
        body,
        rawBody: raw,
        upstreamModel,
        isModelMapped: upstreamModel !== model,
      });
      const called = await callChannel(job, adapter, upstream);
      if (!called.ok) return called;
      const contentType = headerText(called.value.headers, 'content-type') || 'audio/mpeg';
      void reply.code(200).header('content-type', contentType).send(called.value.body);
      return { ok: true, value: null };
    });
    billed = { usage, cost, notes: [`${input.length} characters`] };
  } finally {
    await finishRelayJob(job, billed);
  }
}
