import {
  CredentialRefusedError,
  UnsupportedOptionError,
  UpstreamFormatError,
  UpstreamReportedError,
} from '../canonical/translation';
import { reportChannelFailure } from '../channels/channel-health';
import type { ProviderAdapter, RelayEndpoint, UpstreamRequest } from '../providers/provider-types';
import { ChannelSetupError } from './build-upstream-request';
import { forgetChannelCredential } from './channel-credentials';
import { RelayError } from './relay-error';
import type { RelayChannel } from './channel-cache';
import { ClientGoneError, isClientGone, type RelayJob } from './relay-job';
import { readUpstreamBody, sendToChannel, type UpstreamResponse } from './upstream-call';
import {
  describeChannelSetupFailure,
  describeConnectionFailure,
  describeCredentialFailure,
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
 * Sends to the channel; a non-2xx answer becomes a failure described by the adapter (its body read and the
 * channel key scrubbed from it).
 */
export async function callChannel(
  job: RelayJob,
  adapter: ProviderAdapter,
  upstream: UpstreamRequest,
): Promise<AttemptOutcome<UpstreamResponse>> {
  const response = await sendToChannel(job.runtime, adapter, upstream, job.abort);
  if (response.statusCode >= 200 && response.statusCode < 300) return { ok: true, value: response };
  const body = await readUpstreamBody(response);
  const details = adapter.readError(body, response.statusCode, response.headers);
  return {
    ok: false,
    failure: describeUpstreamError(response.statusCode, details, failedChannelOf(job.channel)),
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
 */
export async function runAttempts<T>(
  job: RelayJob,
  attempt: (adapter: ProviderAdapter) => Promise<AttemptOutcome<T>>,
): Promise<T> {
  const { runtime } = job;
  const retryTimes =
    job.caller.pinnedChannelId === null
      ? Math.max(0, Math.floor(runtime.context.options.getNumber('RetryTimes')))
      : 0;
  for (let retry = 0; ; retry += 1) {
    const channel = job.channel;
    job.triedChannelIds.add(channel.id);
    const found = findAdapter(job, channel);
    let outcome: AttemptOutcome<T>;
    if ('failure' in found) {
      outcome = { ok: false, failure: found.failure };
    } else {
      try {
        outcome = await attempt(found.adapter);
      } catch (error) {
        if (isClientGone(job)) throw new ClientGoneError();
        if (error instanceof RelayError) throw error;
        outcome = { ok: false, failure: describeThrown(error, channel) };
      }
    }
    if (outcome.ok) return outcome.value;
    const { failure } = outcome;
    reportChannelFailure(runtime.context, runtime.log, channel, failure, job.requestId);
    // A refused access token may have been revoked before it expired: the next request fetches a new one.
    if (failure.code === 'channel_auth_failed' && 'adapter' in found && found.adapter.prepareCredential)
      forgetChannelCredential(runtime, channel);
    if (isClientGone(job)) throw new ClientGoneError();
    if (!failure.isRetriable || retry >= retryTimes) throw toRelayError(failure);
    const next = runtime.channels.pick(job.group, job.model, job.triedChannelIds);
    if (!next) throw toRelayError(failure);
    job.channel = next;
  }
}
