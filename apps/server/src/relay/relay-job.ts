import { performance } from 'node:perf_hooks';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ChannelStatus,
  DEFAULT_QUOTA_PER_UNIT,
  nowSeconds,
  type InboundProtocol,
  type LogRetry,
} from '@gatehouse/shared';
import { describePricing, findPricing, unpricedModelMessage, type Pricing } from '../billing/pricing';
import { computeCallCost } from '../billing/quota-cost';
import type { QuotaHolder } from '../billing/quota-reservation';
import { createTokenCounter, type TokenCounter } from '../billing/token-counter';
import type { RelayEndpoint, TokenUsage } from '../providers/provider-types';
import { describeQuota } from '../users/register-user';
import { toRelayChannel, type RelayChannel } from './channel-cache';
import { assertModelAllowed, recheckKey, type RelayCaller } from './key-auth';
import { RelayError, relayErrors } from './relay-error';
import type { RelayRuntime } from './relay-runtime';
import { ClientAbort } from './client-abort';
import type { AttemptWatch } from './attempt-watch';
import { describeCoolingChannels, pickServingChannel } from './channel-picking';
import type { JobLimits } from '../limits/job-limits';
import { unobserved, type RelayObservation } from '../observability/relay-observation';

declare module 'fastify' {
  interface FastifyRequest {
    /** set by the relay's key check before the body is read */
    relayCaller: RelayCaller | null;
  }
}

/** Everything one relay request carries from start to settlement: typed, never a string-keyed map. */
export interface RelayJob {
  readonly runtime: RelayRuntime;
  readonly requestId: string;
  /** performance.now() at the start, for the log's elapsed time */
  readonly startedAt: number;
  readonly createdAt: number;
  readonly caller: RelayCaller;
  readonly endpoint: RelayEndpoint;
  /** the API the client called, for the log */
  readonly inboundProtocol: InboundProtocol;
  /** the model the client asked for: priced, logged and matched against abilities under this name */
  readonly model: string;
  readonly isStream: boolean;
  readonly group: string;
  /** shared by the requests of the same model and group (findPricing) */
  readonly pricing: Readonly<Pricing>;
  /** the channel of the current attempt */
  channel: RelayChannel;
  readonly triedChannelIds: Set<number>;
  /** quota held by the reservation, returned or settled at the end */
  reserved: number;
  /** aborted when the client goes away: the upstream call is cancelled at once */
  readonly abort: ClientAbort;
  /** set while tokens are counted for the settlement: tells the ledger the job is settled */
  settlementCounted: (() => void) | null;
  /** what the request holds on its key's and user's limit counters (relay-limits.ts); null when unlimited */
  limits: JobLimits | null;
  /** the answer's last write, held until its settlement is committed: set by the delivery */
  finalWrite: FinalWrite | null;
  /** metrics and spans of the request, told at the story's seams (observability/) */
  observation: RelayObservation;
  /** the attempt under way: its upstream signal, latency and first-token timer (relay-attempts.ts) */
  attempt: AttemptWatch | null;
  /** performance.now() when the first byte of a streamed answer went to the client; null until then */
  firstByteAt: number | null;
  /** the attempts that failed before the current channel, for the log */
  retries: LogRetry[];
}

/** The longest failure reason a retry keeps in the log row (the column holds them all as JSON). */
const MAX_RETRY_REASON = 160;
const MAX_LOGGED_RETRIES = 5;

/** Remembers a failed attempt for the log row. */
export function noteFailedAttempt(job: RelayJob, channelId: number, reason: string): void {
  if (job.retries.length < MAX_LOGGED_RETRIES) {
    job.retries.push({ channel: channelId, error: reason.slice(0, MAX_RETRY_REASON) });
  }
}

/** The first byte of a streamed answer is going to the client now. */
export function markFirstByte(job: RelayJob): void {
  job.observation.firstByte();
  job.firstByteAt ??= performance.now();
}

/** The log's time to first byte: 0 when nothing was streamed, at least 1 when something was. */
function firstTokenMs(job: RelayJob): number {
  return job.firstByteAt === null ? 0 : Math.max(1, Math.round(job.firstByteAt - job.startedAt));
}

/** The log's columns for the time to first byte and the failed attempts. */
export function attemptColumns(job: RelayJob): { first_token_ms: number; retries: string } {
  return {
    first_token_ms: firstTokenMs(job),
    retries: job.retries.length ? JSON.stringify(job.retries) : '',
  };
}

/**
 * The end of an answer (a JSON body, a stream's last event) is written only once its charge is durable, so a
 * crash can never leave a delivered answer unbilled.
 */
export interface FinalWrite {
  end(): void;
  /** the settlement could not be committed: the answer must not end as if it had been */
  abandon(): void;
}

/** What a finished request is billed for. */
export interface BilledUsage {
  usage: TokenUsage;
  cost: number;
  /** for the log row, e.g. "client disconnected" */
  notes: string[];
}

export function requireCaller(request: FastifyRequest): RelayCaller {
  if (!request.relayCaller) throw relayErrors.missingKey();
  return request.relayCaller;
}

async function findPinnedChannel(runtime: RelayRuntime, id: number): Promise<RelayChannel> {
  const row = await runtime.context.db
    .selectFrom('channels')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw relayErrors.forbidden(`Channel #${id} does not exist`, 'channel_not_found');
  if (row.status !== ChannelStatus.enabled) {
    throw relayErrors.forbidden(`Channel #${id} is disabled`, 'channel_disabled');
  }
  return toRelayChannel(row);
}

/**
 * Checks the key may use the model, picks the first channel (the first of the user's groups that has one)
 * and prices the model. Nothing is reserved yet.
 */
export async function startRelayJob(
  runtime: RelayRuntime,
  request: FastifyRequest,
  reply: FastifyReply,
  target: { endpoint: RelayEndpoint; inboundProtocol?: InboundProtocol; model: string; isStream: boolean },
): Promise<RelayJob> {
  const caller = requireCaller(request);
  const { model } = target;
  assertModelAllowed(caller, model);
  let group = caller.groups[0];
  let channel: RelayChannel | null = null;
  if (caller.pinnedChannelId !== null) {
    channel = await findPinnedChannel(runtime, caller.pinnedChannelId);
  } else {
    await runtime.channels.ready();
    for (const candidate of caller.groups) {
      channel = pickServingChannel(runtime, candidate, model, NONE_TRIED);
      if (channel) {
        group = candidate;
        break;
      }
    }
    // Channels exist but all are cooling down or resting: a 503 saying when to come back.
    if (!channel) {
      const cooling = describeCoolingChannels(runtime, caller.groups, model, NONE_TRIED);
      if (cooling) throw cooling;
    }
  }
  if (!channel) throw relayErrors.noChannel(model, group);
  const pricing = findPricing(runtime.context.options, model, group);
  if (!pricing) throw relayErrors.forbidden(unpricedModelMessage(model), 'model_price_unset');
  const abort = new ClientAbort();
  // 'close' also follows a finished answer; only a close before the end means the client left. A response
  // closes once: `on`, not `once`, which wraps the listener in two more objects.
  reply.raw.on('close', () => {
    if (!reply.raw.writableEnded) abort.abort();
  });
  // Gone already (while its key or body was read): nothing will be sent upstream for it.
  if (reply.raw.destroyed) abort.abort();
  return {
    runtime,
    requestId: request.id,
    startedAt: performance.now(),
    createdAt: nowSeconds(),
    caller,
    endpoint: target.endpoint,
    inboundProtocol: target.inboundProtocol ?? endpointProtocols[target.endpoint],
    model,
    isStream: target.isStream,
    group,
    pricing,
    channel,
    triedChannelIds: new Set(),
    reserved: 0,
    abort,
    settlementCounted: null,
    limits: null,
    finalWrite: null,
    observation: unobserved,
    attempt: null,
    firstByteAt: null,
    retries: [],
  };
}

const NONE_TRIED: ReadonlySet<number> = new Set();

/** The protocol of each endpoint's OpenAI route, when the route does not say another. */
export const endpointProtocols: Readonly<Record<RelayEndpoint, InboundProtocol>> = {
  chat: 'openai-chat',
  completions: 'openai-completions',
  embeddings: 'openai-embeddings',
  moderations: 'openai-moderations',
  images: 'openai-images',
  audioSpeech: 'openai-audio-speech',
  audioTranscriptions: 'openai-audio-transcriptions',
  audioTranslations: 'openai-audio-translations',
};

/** What one call costs when its model is priced per call (ModelPrice); null when it is priced by tokens. */
export function findCallCost(job: RelayJob): number | null {
  const { callPrice, groupRatio } = job.pricing;
  if (callPrice === undefined) return null;
  const quotaPerUnit = job.runtime.context.options.getNumber('QuotaPerUnit') || DEFAULT_QUOTA_PER_UNIT;
  return computeCallCost(callPrice, quotaPerUnit, groupRatio);
}

/** The caller has the holder's three fields: it is the holder, rather than a copy of them per use. */
function holderOf(job: RelayJob): QuotaHolder {
  return job.caller;
}

/** Holds `amount` on the user and the key before anything is sent upstream, or refuses the request. */
export async function reserveForJob(job: RelayJob, amount: number): Promise<void> {
  const { context, keys } = job.runtime;
  const shortfall = await context.reservations.reserve(holderOf(job), amount, job.requestId);
  if (shortfall === null) {
    job.reserved = amount;
    return;
  }
  // The key may have been disabled or expired since it was cached: that is the answer then.
  const current = await recheckKey(context.db, keys, job.caller);
  if (shortfall === 'user') {
    throw relayErrors.insufficientQuota(
      `Your balance (${describeQuota(context, current.userQuota)}) is not enough for this request, which ` +
        `reserves ${describeQuota(context, amount)} up front (lower max_tokens or top up)`,
    );
  }
  throw relayErrors.insufficientQuota(
    `This API key's remaining quota (${describeQuota(context, current.tokenRemainQuota)}) is not enough ` +
      `for this request, which reserves ${describeQuota(context, amount)} up front`,
  );
}

/**
 * The one exit of every relay request. Billed: the settlement (difference to the reservation, used quota,
 * request counts, the consumption log, the reservation record deleted) goes to the ledger's next batch. Not
 * billed (the request failed): the whole reservation goes back at once, with its record. Either way the
 * answer's last write waits for that commit: one await of a promise the batch shares.
 */
export async function finishRelayJob(job: RelayJob, billed: BilledUsage | null): Promise<void> {
  // Never throws: the parallel slot is free and TPM and budget hold the settled amounts before the answer ends.
  // (Not `await job.limits?.release(…)`: awaiting nothing still costs a promise and a turn.)
  if (job.limits) await job.limits.release(billed);
  // From here its lease is not renewed: if the database refuses the settlement, the record runs out.
  job.runtime.context.reservations.finished(job.requestId);
  let committed: Promise<void>;
  try {
    committed = settleJob(job, billed);
  } finally {
    job.settlementCounted?.();
  }
  try {
    await committed;
  } catch (error) {
    job.finalWrite?.abandon();
    job.runtime.log.error(
      { err: error, requestId: job.requestId },
      'the charge of an answer was not recorded',
    );
    throw relayErrors.settlementFailed();
  } finally {
    job.settlementCounted = null;
  }
  job.finalWrite?.end();
}

/**
 * Counts tokens for a job: exact with the model's encoding (in the tokenizer thread, which builds its tables
 * on the first such count, ~0.1 s), or approximate when ApproximateTokenEnabled — or when the thread cannot
 * count (logged with the request id).
 */
export function createJobTokenCounter(job: RelayJob): TokenCounter {
  const { options } = job.runtime.context;
  return createTokenCounter(job.model, options.getBoolean('ApproximateTokenEnabled'), (error) =>
    job.runtime.log.warn(
      { err: error, requestId: job.requestId },
      'the exact token count failed: the approximation is used',
    ),
  );
}

/**
 * Counts usage the upstream did not report, at settlement (createJobTokenCounter). Until the job is settled,
 * the ledger's flush() and close() wait for it, so a shutdown in the meantime loses nothing.
 */
export function createSettlementCounter(job: RelayJob): TokenCounter {
  job.settlementCounted ??= job.runtime.ledger.expectSettlement();
  return createJobTokenCounter(job);
}

function settleJob(job: RelayJob, billed: BilledUsage | null): Promise<void> {
  const { context, ledger } = job.runtime;
  if (!billed) return context.reservations.refund(holderOf(job), job.reserved, job.requestId);
  return ledger.record({
    holder: holderOf(job),
    reservationId: job.reserved > 0 ? job.requestId : undefined,
    channelId: job.channel.id,
    reserved: job.reserved,
    cost: billed.cost,
    createdAt: job.createdAt,
    // Nothing of the answer went out yet (a JSON body): if its charge cannot be committed, neither is it.
    isWithheld: job.firstByteAt === null,
    log: context.options.getBoolean('LogConsumeEnabled')
      ? {
          user_id: job.caller.userId,
          username: job.caller.username,
          token_name: job.caller.tokenName,
          model_name: job.model,
          prompt_tokens: billed.usage.promptTokens,
          completion_tokens: billed.usage.completionTokens,
          cache_read_tokens: billed.usage.cacheReadTokens ?? 0,
          cache_write_tokens: billed.usage.cacheWriteTokens ?? 0,
          reasoning_tokens: billed.usage.reasoningTokens ?? 0,
          audio_input_tokens: billed.usage.audioInputTokens ?? 0,
          image_input_tokens: billed.usage.imageInputTokens ?? 0,
          audio_output_tokens: billed.usage.audioOutputTokens ?? 0,
          image_output_tokens: billed.usage.imageOutputTokens ?? 0,
          channel_id: job.channel.id,
          elapsed_time: Math.round(performance.now() - job.startedAt),
          is_stream: job.isStream ? 1 : 0,
          request_id: job.requestId,
          inbound_protocol: job.inboundProtocol,
          model_ratio: job.pricing.modelRatio,
          completion_ratio: job.pricing.completionRatio,
          cache_read_ratio: job.pricing.cacheReadRatio,
          cache_write_ratio: job.pricing.cacheWriteRatio,
          audio_input_ratio: job.pricing.audioInputRatio,
          image_input_ratio: job.pricing.imageInputRatio,
          audio_output_ratio: job.pricing.audioOutputRatio,
          image_output_ratio: job.pricing.imageOutputRatio,
          group_ratio: job.pricing.groupRatio,
          call_price: job.pricing.callPrice ?? 0,
          first_token_ms: firstTokenMs(job),
          retries: job.retries.length ? JSON.stringify(job.retries) : '',
          content: describeCharge(job, billed.notes),
        }
      : null,
  });
}

/**
 * The log's text: the pricing, the notes, the model the channel was asked for. Concatenated, not collected
 * and joined: without notes or mapping it is the pricing's shared text, with nothing built.
 */
function describeCharge(job: RelayJob, notes: readonly string[]): string {
  let content = describePricing(job.pricing);
  for (const note of notes) content += `, ${note}`;
  const upstreamModel = job.channel.modelMapping.get(job.model);
  if (upstreamModel) content += `, upstream model ${upstreamModel}`;
  return content;
}

/** The model name the current channel should see. */
export function upstreamModelOf(job: RelayJob): string {
  return job.channel.modelMapping.get(job.model) ?? job.model;
}

export function isClientGone(job: RelayJob): boolean {
  return job.abort.isAborted;
}

/** Thrown when the client left: there is nobody to answer. */
export class ClientGoneError extends RelayError {
  constructor() {
    super(499, 'The client closed the connection', 'invalid_request_error', 'client_closed_request');
  }
}
