import type { FastifyReply, FastifyRequest } from 'fastify';
import { computeTokenCost } from '../billing/quota-cost';
import { checkOptionalString } from '../protocols/openai-chat/openai-request-fields';
import { buildJsonChannelRequest } from './build-upstream-request';
import { callChannel } from './relay-attempts';
import { relayErrors } from './relay-error';
import { readOptionalString, requireModel, type RelayJsonBody } from './relay-request';
import type { RelayRuntime } from './relay-runtime';
import { runRelay } from './relay-story';
import { headerText } from './upstream-call';

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
  checkOptionalString(body.input, 'input');
  const input = readOptionalString(body, 'input');
  if (!input) throw relayErrors.invalidRequest('input is required', 'input');
  if (input.length > MAX_SPEECH_CHARACTERS) {
    throw relayErrors.invalidRequest(`input must be at most ${MAX_SPEECH_CHARACTERS} characters`, 'input');
  }
  const usage = { promptTokens: input.length, completionTokens: 0 };
  await runRelay(runtime, request, reply, {
    endpoint: 'audioSpeech',
    model,
    isStream: false,
    reserve: (job) => computeTokenCost(job.pricing, usage),
    async attempt(job, adapter) {
      // runAttempts only calls with an adapter that has the capability.
      const capability = adapter.audioSpeech!;
      const built = await buildJsonChannelRequest(job, adapter, (input) => capability.buildRequest(input), {
        body,
        rawBody: raw,
      });
      if (!built.ok) return built;
      const called = await callChannel(job, adapter, built.value);
      if (!called.ok) return called;
      const contentType = headerText(called.value.headers, 'content-type') || 'audio/mpeg';
      void reply.code(200).header('content-type', contentType).send(called.value.body);
      return { ok: true, value: null };
    },
    // Priced per input character, so the reservation was already the exact cost.
    bill: (job) => ({
      usage,
      cost: computeTokenCost(job.pricing, usage),
      notes: [`${input.length} characters`],
    }),
  });
}
