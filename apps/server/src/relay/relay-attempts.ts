import { disableFailingChannel } from '../channels/channel-health';
import type { ProviderAdapter, UpstreamRequest } from '../providers/provider-types';
import { findChannelType } from '@gatehouse/shared';
import { RelayError } from './relay-error';
import type { RelayChannel } from './channel-cache';
import { ClientGoneError, isClientGone, type RelayJob } from './relay-job';
import { readUpstreamBody, sendUpstream, type UpstreamResponse } from './upstream-call';
import {
  describeConnectionFailure,
  describeUnservableChannel,
  describeUpstreamError,
  toRelayError,
  type UpstreamFailure,
} from './upstream-failure';

export type AttemptOutcome<T> = { ok: true; value: T } | { ok: false; failure: UpstreamFailure };

const endpointNames: Record<RelayJob['capability'], string> = {
  chat: 'chat completions',
  completions: 'completions',
  embeddings: 'embeddings',
  moderations: 'moderations',
  images: 'image generation',
  audioSpeech: 'speech',
  audioTranscriptions: 'transcriptions',
  audioTranslations: 'translations',
};

/** The adapter that can serve this job on this channel, or why not (another channel may still). */
function findAdapter(
  job: RelayJob,
  channel: RelayChannel,
): { adapter: ProviderAdapter } | { failure: UpstreamFailure } {
  const typeName = findChannelType(channel.type)?.name ?? `type ${channel.type}`;
  const unservable = (message: string) => ({ failure: describeUnservableChannel(message) });
  if (!channel.provider) return unservable(`Channel type ${typeName} is not known to this server`);
  if (!channel.provider.isSupported) return unservable(channel.provider.reason);
  const { adapter } = channel.provider;
  if (job.capability !== 'chat' && adapter[job.capability] === undefined) {
    return unservable(`${typeName} channels do not offer ${endpointNames[job.capability]}`);
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
  const response = await sendUpstream(job.runtime, upstream, job.abort);
  if (response.statusCode >= 200 && response.statusCode < 300) return { ok: true, value: response };
  const body = await readUpstreamBody(response);
  const details = adapter.readError(body);
  return {
    ok: false,
    failure: describeUpstreamError(response.statusCode, details, job.channel.credentials.key),
  };
}

/**
 * Tries the job's channel, then — on 429, 5xx, timeouts, connection errors and dead channels, up to RetryTimes
 * more times — other channels: never one already tried, the highest remaining priority first. Client errors
 * (400-class answers about the request) end it at once. A channel pinned with sk-KEY-CHANNELID is never left.
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
        outcome = { ok: false, failure: describeConnectionFailure(error) };
      }
    }
    if (outcome.ok) return outcome.value;
    const { failure } = outcome;
    runtime.log.warn(
      {
        requestId: job.requestId,
        channelId: channel.id,
        upstreamStatus: failure.upstreamStatus,
        reason: failure.message,
      },
      'upstream attempt failed',
    );
    if (failure.isChannelDead) {
      void disableFailingChannel(runtime.context, runtime.log, channel, failure.message);
    }
    if (isClientGone(job)) throw new ClientGoneError();
    if (!failure.isRetriable || retry >= retryTimes) throw toRelayError(failure);
    const next = runtime.channels.pick(job.group, job.model, job.triedChannelIds);
    if (!next) throw toRelayError(failure);
    job.channel = next;
  }
}
