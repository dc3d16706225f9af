import type { FastifyReply, FastifyRequest } from 'fastify';
import { computeTokenCost } from '../billing/quota-cost';
import { checkOptionalString } from '../protocols/openai-chat/openai-request-fields';
import { buildJsonChannelRequest } from './build-upstream-request';
import { callChannelForStream } from './relay-attempts';
import { writeOwnHead } from './relay-delivery';
import { RelayError, relayErrors } from './relay-error';
import { ClientGoneError, isClientGone, type RelayJob } from './relay-job';
import { readOptionalString, requireModel, type RelayJsonBody } from './relay-request';
import type { RelayRuntime } from './relay-runtime';
import { runRelay } from './relay-story';
import type { StreamedUpstreamResponse } from './streamed-upstream-call';
import { headerText } from './upstream-call';
import { describeConnectionFailure, type AttemptOutcome } from './upstream-failure';

/** https://platform.openai.com/docs/api-reference/audio/createSpeech */
const MAX_SPEECH_CHARACTERS = 4096;

/** How the audio reached the client: whole, or cut by the client going away (still billed, like chat). */
interface SpokenAudio {
  interruption: 'client disconnected' | null;
}

/**
 * POST /v1/audio/speech. Speech is priced per input character, so the reservation is the exact cost; the
 * audio is streamed to the client as it arrives, all but its last chunk, which waits for the settlement's
 * commit like the end of any other answer.
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
      const called = await callChannelForStream(job, adapter, built.value);
      if (!called.ok) return called;
      return deliverAudio(job, reply, called.value);
    },
    // Priced per input character, so the reservation was already the exact cost.
    bill: (job, spoken) => ({
      usage,
      cost: computeTokenCost(job.pricing, usage),
      notes: [`${input.length} characters`, ...(spoken.interruption ? [spoken.interruption] : [])],
    }),
  });
}

/** Resolves when the client's socket takes writes again, or is gone. */
function waitForRoom(reply: FastifyReply): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      reply.raw.off('drain', done);
      reply.raw.off('close', done);
      resolve();
    };
    reply.raw.on('drain', done);
    reply.raw.on('close', done);
  });
}

/**
 * Sends the upstream's audio on as it arrives, always one chunk behind: the last chunk and the end of the
 * body are the answer's final write (job.finalWrite), sent by finishRelayJob once the charge is committed,
 * or never when it cannot be. Until the first chunk goes out, a broken upstream is retried on another
 * channel; after it, the client's connection is cut (no complete file) and nothing is billed.
 */
async function deliverAudio(
  job: RelayJob,
  reply: FastifyReply,
  response: StreamedUpstreamResponse,
): Promise<AttemptOutcome<SpokenAudio>> {
  const raw = reply.raw;
  const contentType = headerText(response.headers, 'content-type') || 'audio/mpeg';
  let isStarted = false;
  const start = () => {
    if (isStarted) return;
    isStarted = true;
    writeOwnHead(reply, { 'content-type': contentType });
    job.observation.firstByte();
  };
  const cut = { end: () => raw.destroy(), abandon: () => raw.destroy() };
  let held: Buffer | null = null;
  try {
    await response.body.readChunks((bytes) => {
      const previous = held;
      held = bytes;
      if (previous === null || previous.length === 0) return null;
      start();
      return raw.write(previous) || raw.destroyed ? null : waitForRoom(reply);
    });
  } catch (error) {
    if (isClientGone(job)) {
      if (!isStarted) throw new ClientGoneError();
      job.finalWrite = cut;
      return { ok: true, value: { interruption: 'client disconnected' } };
    }
    if (!isStarted) return { ok: false, failure: describeConnectionFailure(error) };
    job.runtime.log.warn({ err: error, requestId: job.requestId }, 'upstream audio broke mid-answer');
    job.finalWrite = cut;
    throw new RelayError(
      502,
      'The upstream audio stream was interrupted',
      'upstream_error',
      'stream_interrupted',
    );
  }
  if (isClientGone(job)) {
    job.finalWrite = cut;
    return { ok: true, value: { interruption: 'client disconnected' } };
  }
  const last = held ?? Buffer.alloc(0);
  if (isStarted) {
    job.finalWrite = { end: () => raw.end(last), abandon: () => raw.destroy() };
  } else {
    // One chunk in all: it is sent whole after the commit, or the error handler answers instead.
    job.finalWrite = {
      end: () => void reply.code(200).header('content-type', contentType).send(last),
      abandon: () => undefined,
    };
  }
  return { ok: true, value: { interruption: null } };
}
