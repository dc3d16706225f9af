import {
  CredentialRefusedError,
  UnsupportedOptionError,
  UpstreamFormatError,
  UpstreamReportedError,
} from '../canonical/translation';
import { clearChannelAuthFailure, reportChannelFailure } from '../channels/channel-health';
import type { ProviderAdapter, RelayEndpoint, UpstreamRequest } from '../providers/provider-types';
import { AttemptWatch } from './attempt-watch';
import { ChannelSetupError, RequestTranslationError } from './build-upstream-request';
import { getChannelBreaker, judgeFailure, parseRetryAfter } from './channel-breaker';
import { describeCoolingChannels, pickServingChannel } from './channel-picking';
import { forgetChannelCredential } from './channel-credentials';
import { RelayError, relayErrors } from './relay-error';
import type { RelayChannel } from './channel-cache';
import type { ClientAbort } from './client-abort';
import { ClientGoneError, isClientGone, noteFailedAttempt, type RelayJob } from './relay-job';
import { readUpstreamBody, sendToChannel, type UpstreamResponse } from './upstream-call';
import {
  chunksOfReadable,
  readAllChunks,
  sendUpstreamForStream,
  type StreamedUpstreamResponse,
} from './streamed-upstream-call';
import { sendUpstreamForWhole } from './whole-upstream-call';
import {
  describeChannelSetupFailure,
  describeUntranslatedRequest,
  describeConnectionFailure,
  describeCredentialFailure,
  describeFirstTokenTimeout,
  describeMalformedAnswer,
  describeReportedError,
  describeUnservableChannel,
  describeUnsupportedOption,
  describeUpstreamError,
  toRelayError,
  type AttemptOutcome,
  type FailedChannel,
  type UpstreamFailure,
} from './upstream-failure';

export type { AttemptOutcome } from './upstream-failure';

/** One try of an endpoint on the job's current channel (a RelayPlan is one: its method is called as such). */
export interface Attempter<T> {
  attempt(job: RelayJob, adapter: ProviderAdapter): Promise<AttemptOutcome<T>>;
}

const endpointNames: Record<RelayEndpoint, string> = {
  chat: 'chat completions',
  completions: 'completions',
  embeddings: 'embeddings',
  moderations: 'moderations',
  images: 'image generation',
  audioSpeech: 'speech',
  audioTranscriptions: 'transcriptions',
  audioTranslations: 'translations',
};

export function failedChannelOf(channel: RelayChannel): FailedChannel {
  return { typeName: channel.typeName, key: channel.credentials.key };
}

/** The adapter that can serve this job on this channel, or why not (another channel may still). */
function findAdapter(
  job: RelayJob,
  channel: RelayChannel,
): { adapter: ProviderAdapter } | { failure: UpstreamFailure } {
  const unservable = (message: string) => ({ failure: describeUnservableChannel(message) });
  if (!channel.provider) return unservable(`Channel type ${channel.typeName} is not known to this server`);
  if (!channel.provider.isSupported) return unservable(channel.provider.reason);
  const { adapter } = channel.provider;
  if (job.endpoint !== 'chat' && adapter[job.endpoint] === undefined) {
    return unservable(`${channel.typeName} channels do not offer ${endpointNames[job.endpoint]}`);
  }
  return { adapter };
}

/**
 * What the attempt's upstream call is cancelled by. A signal that fired already is not seen by the call: the
 * client left (or the first-token timer ran out) while the request was being prepared.
 */
function attemptSignal(job: RelayJob): ClientAbort {
  const signal = job.attempt?.signal ?? job.abort;
  if (signal.isAborted) {
    if (isClientGone(job)) throw new ClientGoneError();
    throw new Error('The attempt was cut before its request was sent');
  }
  return signal;
}

/**
 * Sends to the channel; a non-2xx answer becomes a failure described by the adapter (its body read and the
 * channel key scrubbed from it).
 */
export async function callChannel(
  job: RelayJob,
  adapter: ProviderAdapter,
  upstream: UpstreamRequest,
): Promise<AttemptOutcome<UpstreamResponse>> {
  const response = await sendToChannel(job.runtime, adapter, upstream, attemptSignal(job));
  job.attempt?.answered();
  if (response.statusCode >= 200 && response.statusCode < 300) return { ok: true, value: response };
  const body = await readUpstreamBody(response);
  return {
    ok: false,
    failure: describeErrorAnswer(job, adapter, response.statusCode, response.headers, body),
  };
}

/** A non-2xx answer as the channel's failure, described by the adapter (the channel key scrubbed from it). */
function describeErrorAnswer(
  job: RelayJob,
  adapter: ProviderAdapter,
  statusCode: number,
  headers: UpstreamResponse['headers'],
  body: Buffer,
): UpstreamFailure {
  const details = adapter.readError(body, statusCode, headers);
  const failure = describeUpstreamError(statusCode, details, failedChannelOf(job.channel));
  if (statusCode === 429) failure.retryAfterMs = parseRetryAfter(headers, Date.now());
  return failure;
}

/**
 * callChannel for an answer used whole (a JSON answer): its body, or the failure its error answer describes.
 * Read without a body stream over the HTTP pools (whole-upstream-call.ts); an adapter's own transport hands back
 * a stream, read the usual way. A body cut short throws, like a connection that fails before the answer.
 */
export async function callChannelForWhole(
  job: RelayJob,
  adapter: ProviderAdapter,
  upstream: UpstreamRequest,
): Promise<AttemptOutcome<Buffer>> {
  if (adapter.transport) {
    const called = await callChannel(job, adapter, upstream);
    return called.ok ? { ok: true, value: await readUpstreamBody(called.value) } : called;
  }
  const signal = attemptSignal(job);
  const watch = job.attempt;
  const response = await sendUpstreamForWhole(job.runtime, upstream, signal, () => watch?.answered());
  if (response.statusCode >= 200 && response.statusCode < 300) return { ok: true, value: response.body };
  return {
    ok: false,
    failure: describeErrorAnswer(job, adapter, response.statusCode, response.headers, response.body),
  };
}

/**
 * callChannel for a streamed answer: its status and headers, and a body handed over chunk by chunk. Over the
 * HTTP pools without a body stream (streamed-upstream-call.ts); an adapter's own transport's stream is read
 * through the same interface. An error answer is read whole and described, like callChannel's.
 */
export async function callChannelForStream(
  job: RelayJob,
  adapter: ProviderAdapter,
  upstream: UpstreamRequest,
): Promise<AttemptOutcome<StreamedUpstreamResponse>> {
  const signal = attemptSignal(job);
  let response: StreamedUpstreamResponse;
  if (adapter.transport) {
    const { statusCode, headers, body } = await adapter.transport.send(upstream, signal);
    response = { statusCode, headers, body: chunksOfReadable(body) };
  } else {
    response = await sendUpstreamForStream(job.runtime, upstream, signal);
  }
  job.attempt?.answered();
  if (response.statusCode >= 200 && response.statusCode < 300) return { ok: true, value: response };
  const body = await readAllChunks(response.body);
  return {
    ok: false,
    failure: describeErrorAnswer(job, adapter, response.statusCode, response.headers, body),
  };
}

/** What an attempt threw, as a failure of the channel it was made on. */
export function describeThrown(error: unknown, channel: RelayChannel): UpstreamFailure {
  if (error instanceof UnsupportedOptionError)
    return describeUnsupportedOption(error, failedChannelOf(channel));
  if (error instanceof UpstreamReportedError) return describeReportedError(error, failedChannelOf(channel));
  if (error instanceof ChannelSetupError) {
    return error.reason instanceof CredentialRefusedError
      ? describeCredentialFailure(error.reason, true, failedChannelOf(channel))
      : describeChannelSetupFailure(error.message, failedChannelOf(channel));
  }
  if (error instanceof RequestTranslationError)
    return describeUntranslatedRequest(error.message, failedChannelOf(channel));
  if (error instanceof UpstreamFormatError)
    return describeMalformedAnswer(error.message, failedChannelOf(channel));
  return describeConnectionFailure(error);
}

/**
 * The one attempt loop of every /v1 endpoint. Tries the job's channel, then — on 429, 5xx, timeouts,
 * connection errors, malformed answers, refused channel credentials and options the vendor lacks, up to
 * RetryTimes more times — other channels: never one already tried, the highest remaining priority first.
 * Client errors (400-class answers about the request) end it at once. A channel pinned with sk-KEY-CHANNELID
 * is never left.
 *
 * Each attempt's outcome goes to the circuit breaker (channel-breaker.ts), which skips channels that keep
 * failing or were told to rest; a channel whose breaker closed between the pick and the attempt (another
 * request took its one probe) is passed over without counting as a retry.
 */
export async function runAttempts<T>(job: RelayJob, attempter: Attempter<T>): Promise<T> {
  const { runtime } = job;
  const { options } = runtime.context;
  const breaker = getChannelBreaker(runtime.context);
  const isPinned = job.caller.pinnedChannelId !== null;
  const retryTimes = isPinned ? 0 : Math.max(0, Math.floor(options.getNumber('RetryTimes')));
  const firstByteTimeoutMs = job.isStream ? options.getNumber('StreamFirstTokenTimeout') * 1000 : 0;
  for (let retry = 0; ; retry += 1) {
    const channel = job.channel;
    job.triedChannelIds.add(channel.id);
    if (isClientGone(job)) throw new ClientGoneError();
    if (!isPinned && !breaker.claim(channel.id, job.model)) {
      const next = pickServingChannel(runtime, job.group, job.model, job.triedChannelIds);
      if (!next) {
        throw (
          describeCoolingChannels(runtime, [job.group], job.model, new Set()) ??
          relayErrors.noChannel(job.model, job.group)
        );
      }
      job.channel = next;
      retry -= 1;
      continue;
    }
    job.observation.attemptStarted(channel);
    const watch = new AttemptWatch(job.abort, firstByteTimeoutMs);
    job.attempt = watch;
    let outcome: AttemptOutcome<T>;
    try {
      outcome = await attemptOn(job, channel, attempter);
    } catch (error) {
      breaker.release(channel.id, job.model);
      throw error;
    } finally {
      watch.stop();
      job.attempt = null;
    }
    if (watch.hasTimedOut && !outcome.ok) {
      outcome = {
        ok: false,
        failure: describeFirstTokenTimeout(firstByteTimeoutMs / 1000, failedChannelOf(channel)),
      };
    }
    job.observation.attemptEnded(outcome.ok ? null : outcome.failure);
    if (outcome.ok) {
      const wasAuthFailed = breaker.recordOutcome(channel.id, job.model, 'answered', {
        latencyMs: watch.latencyMs,
      });
      if (wasAuthFailed || channel.authFailedReason !== '') clearChannelAuthFailure(runtime, channel);
      return outcome.value;
    }
    const { failure } = outcome;
    breaker.recordOutcome(channel.id, job.model, judgeFailure(failure), {
      latencyMs: watch.latencyMs,
      reason: failure.message,
      retryAfterMs: failure.retryAfterMs ?? null,
    });
    reportChannelFailure(runtime.context, runtime.log, channel, failure, job.requestId);
    noteFailedAttempt(job, channel.id, failure.message);
    // A refused access token may have been revoked before it expired: the next request fetches a new one.
    if (
      failure.code === 'channel_auth_failed' &&
      channel.provider?.isSupported &&
      channel.provider.adapter.prepareCredential
    )
      forgetChannelCredential(runtime, channel);
    if (isClientGone(job)) throw new ClientGoneError();
    if (!failure.isRetriable || retry >= retryTimes) throw toRelayError(failure);
    const next = pickServingChannel(runtime, job.group, job.model, job.triedChannelIds);
    if (!next) throw toRelayError(failure);
    job.channel = next;
  }
}

/**
 * One attempt on the channel: its outcome, or a throw when there is nobody left to answer (the client went)
 * or the failure is the request's own (a RelayError).
 */
async function attemptOn<T>(
  job: RelayJob,
  channel: RelayChannel,
  attempter: Attempter<T>,
): Promise<AttemptOutcome<T>> {
  const found = findAdapter(job, channel);
  if ('failure' in found) return { ok: false, failure: found.failure };
  try {
    return await attempter.attempt(job, found.adapter);
  } catch (error) {
    if (isClientGone(job)) throw new ClientGoneError();
    if (error instanceof RelayError) throw error;
    if (error instanceof RequestTranslationError) {
      // The stack is where the adapter (or the shape of this request) needs looking at.
      job.runtime.log.error(
        { err: error.reason, requestId: job.requestId, channel: channel.id },
        'an adapter could not write the upstream request',
      );
    }
    return { ok: false, failure: describeThrown(error, channel) };
  }
}
