import type { ChannelCircuitState, ChannelHealth } from '@gatehouse/shared';
import { quietHealth } from '../channels/channel-repository';
import type { AppContext } from '../context';
import type { UpstreamFailure } from './upstream-failure';

/**
 * The state of one channel for one model, as the relay's picking sees it:
 * - closed: used normally;
 * - open: skipped after consecutive failures, until its cool-down ends;
 * - half_open: the cool-down ended; one probe request is let through, and its outcome closes or reopens it;
 * - resting: skipped because the upstream answered 429 with a Retry-After, until then.
 */
export type CircuitState = ChannelCircuitState;

/** How an attempt's outcome counts for the channel. */
export type AttemptVerdict =
  /** the channel answered, even if the answer was about the client's own request (a 400) */
  | 'answered'
  /** 5xx, timeout, network error, malformed answer, a first token that never came */
  | 'failed'
  /** the upstream refused the channel's credentials (401/403) */
  | 'authFailed'
  /** 429 with a Retry-After: rest until then */
  | 'rateLimited'
  /** nothing about the channel: the request cannot be served there (an option the vendor lacks) */
  | 'ignored';

export interface BreakerSettings {
  /** consecutive failures that open a circuit; 0 = never open */
  failureThreshold: number;
  /** the first cool-down; each failed probe doubles it */
  coolDownMs: number;
  /** the longest cool-down, and the longest rest a Retry-After can ask for */
  maxCoolDownMs: number;
}

/** One circuit as a gauge would publish it. Times are Unix milliseconds; 0 = none. */
export interface CircuitSnapshot {
  channelId: number;
  model: string;
  state: CircuitState;
  /** when an open circuit may be probed or a rest ends */
  until: number;
  consecutiveFailures: number;
  /** the last failure's words */
  reason: string;
}

export type ChannelHealthSummary = ChannelHealth;

interface Circuit {
  consecutiveFailures: number;
  /** 0 while closed; else when the cool-down ends (then half-open) */
  openUntil: number;
  /** openings in a row without a success: the cool-down grows with them */
  trips: number;
  isProbing: boolean;
  restUntil: number;
  reason: string;
}

interface Bucket {
  start: number;
  attempts: number;
  failures: number;
  latencySum: number;
  latencyCount: number;
}

interface ChannelRecord {
  circuits: Map<string, Circuit>;
  buckets: Bucket[];
  authFailure: { reason: string; at: number } | null;
}

export const HEALTH_WINDOW_MS = 5 * 60_000;
const BUCKET_MS = 10_000;
const BUCKET_COUNT = HEALTH_WINDOW_MS / BUCKET_MS;

/** What kind of failure this is for the breaker; the client's own mistakes never count against a channel. */
export function judgeFailure(failure: UpstreamFailure): AttemptVerdict {
  if (failure.code === 'channel_auth_failed') return 'authFailed';
  if (failure.code === 'unsupported_option' || failure.code === 'not_implemented') return 'ignored';
  if (failure.kind === 'untranslated') return 'ignored';
  if (failure.upstreamStatus === 429 && !failure.isChannelDead && failure.retryAfterMs) return 'rateLimited';
  if (failure.isRetriable) return 'failed';
  return 'answered';
}

/**
 * How long an upstream asks to be left alone: `retry-after-ms` (OpenAI, Azure), else `Retry-After` in seconds
 * or as an HTTP date (RFC 9110 §10.2.3). Null when absent or unreadable.
 */
export function parseRetryAfter(
  headers: Record<string, string | string[] | undefined>,
  now: number,
): number | null {
  const first = (name: string) => {
    const value = headers[name];
    return (Array.isArray(value) ? value[0] : value)?.trim() ?? '';
  };
  const milliseconds = first('retry-after-ms');
  if (/^\d+(\.\d+)?$/.test(milliseconds)) return Math.ceil(Number(milliseconds));
  const text = first('retry-after');
  if (text === '') return null;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

const circuitKey = (model: string) => model;

/**
 * Circuit breakers per channel × model, rests after 429s, refused credentials and the recent error rate and
 * latency of each channel. Held in this process only (each node judges the upstreams it talks to itself).
 * Synchronous throughout: a check and a probe claim cannot interleave with another request's.
 */
export class ChannelBreaker {
  private readonly channels = new Map<number, ChannelRecord>();
  /** circuits open or half-open now, and the end of the latest rest: while both are clear, nothing is skipped */
  private openCircuits = 0;
  private latestRestUntil = 0;

  constructor(
    private readonly settings: () => BreakerSettings,
    private readonly now: () => number = Date.now,
  ) {}

  /** No circuit is open, half-open or resting: picking need not ask about each channel. */
  isAllClear(): boolean {
    return this.openCircuits === 0 && this.latestRestUntil <= this.now();
  }

  /** When the channel can next serve the model: 0 = now. A half-open circuit can while its probe is free. */
  blockedUntil(channelId: number, model: string): number {
    const circuit = this.channels.get(channelId)?.circuits.get(circuitKey(model));
    if (!circuit) return 0;
    const now = this.now();
    if (circuit.restUntil > now) return Math.max(circuit.restUntil, circuit.openUntil);
    if (circuit.openUntil > now) return circuit.openUntil;
    // A probe is out: the answer is due soon; a second later is the best guess.
    if (circuit.openUntil > 0 && circuit.isProbing) return now + 1000;
    return 0;
  }

  /**
   * Claims the channel for one attempt right before it is sent: false when it cannot serve now. Past an open
   * circuit's cool-down the claim is the one probe; the attempt's outcome (recordOutcome) or release() frees it.
   */
  claim(channelId: number, model: string): boolean {
    if (this.blockedUntil(channelId, model) > 0) return false;
    const circuit = this.channels.get(channelId)?.circuits.get(circuitKey(model));
    if (circuit && circuit.openUntil > 0) circuit.isProbing = true;
    return true;
  }

  /** An attempt ended without telling anything about the channel (the client left, it was never sent). */
  release(channelId: number, model: string): void {
    const circuit = this.channels.get(channelId)?.circuits.get(circuitKey(model));
    if (circuit) circuit.isProbing = false;
  }

  /**
   * What one attempt showed. `latencyMs` is the time until the upstream's answer began, when one did.
   * Answers true when the channel was marked auth-failed and no longer is.
   */
  recordOutcome(
    channelId: number,
    model: string,
    verdict: AttemptVerdict,
    details: { latencyMs?: number | null; reason?: string; retryAfterMs?: number | null } = {},
  ): boolean {
    if (verdict === 'ignored') {
      this.release(channelId, model);
      return false;
    }
    const now = this.now();
    const record = this.recordOf(channelId);
    const circuit = this.circuitOf(record, model);
    // Still cooling down: this attempt was sent before the circuit opened (no probe is let out before the
    // cool-down ends), so its outcome neither frees a probe nor reopens the circuit for longer.
    const isCoolingDown = circuit.openUntil > now;
    if (!isCoolingDown) circuit.isProbing = false;
    const isFailure = verdict !== 'answered';
    this.count(record, now, isFailure, isFailure ? null : (details.latencyMs ?? null));
    const reason = details.reason ?? '';
    if (!isFailure) {
      circuit.consecutiveFailures = 0;
      this.close(circuit);
      circuit.trips = 0;
      circuit.reason = '';
      const wasAuthFailed = record.authFailure !== null;
      record.authFailure = null;
      return wasAuthFailed;
    }
    const settings = this.settings();
    circuit.reason = reason;
    if (verdict === 'rateLimited') {
      // The upstream is alive and said when to come back: no probe needed after the rest.
      const rest = Math.min(details.retryAfterMs ?? 0, settings.maxCoolDownMs);
      circuit.restUntil = Math.max(circuit.restUntil, now + rest);
      this.latestRestUntil = Math.max(this.latestRestUntil, circuit.restUntil);
      circuit.consecutiveFailures = 0;
      this.close(circuit);
      circuit.trips = 0;
      return false;
    }
    if (verdict === 'authFailed') record.authFailure = { reason, at: now };
    if (isCoolingDown) return false;
    circuit.consecutiveFailures += 1;
    const threshold = settings.failureThreshold;
    const isProbeFailure = circuit.openUntil > 0;
    // Refused credentials count like any failure, not more: a derived access token refused once is fetched
    // anew by the next request, and a single channel would otherwise answer 503 for a whole cool-down.
    const shouldOpen = threshold > 0 && (isProbeFailure || circuit.consecutiveFailures >= threshold);
    if (shouldOpen) {
      circuit.trips += 1;
      const coolDown = Math.min(
        settings.coolDownMs * 2 ** Math.min(circuit.trips - 1, 30),
        settings.maxCoolDownMs,
      );
      if (circuit.openUntil === 0) this.openCircuits += 1;
      circuit.openUntil = now + coolDown;
      circuit.consecutiveFailures = 0;
    }
    return false;
  }

  /** The reason the upstream last refused the channel's credentials, when it did and no success came since. */
  authFailureOf(channelId: number): string | null {
    return this.channels.get(channelId)?.authFailure?.reason ?? null;
  }

  /** Every circuit this breaker has seen, with its state now: what a metrics gauge publishes. */
  snapshot(): CircuitSnapshot[] {
    const snapshots: CircuitSnapshot[] = [];
    const now = this.now();
    for (const [channelId, record] of this.channels) {
      for (const [model, circuit] of record.circuits) {
        snapshots.push({
          channelId,
          model,
          state: stateOf(circuit, now),
          until: untilOf(circuit, now),
          consecutiveFailures: circuit.consecutiveFailures,
          reason: circuit.reason,
        });
      }
    }
    return snapshots;
  }

  /** The channel's state and recent numbers, for the channel list. */
  summarize(channelId: number): ChannelHealthSummary {
    const now = this.now();
    const summary: ChannelHealthSummary = quietHealth(HEALTH_WINDOW_MS / 1000);
    const record = this.channels.get(channelId);
    if (!record) return summary;
    let worst: { state: CircuitState; until: number; model: string; reason: string } | null = null;
    for (const [model, circuit] of record.circuits) {
      const state = stateOf(circuit, now);
      if (state === 'closed') continue;
      const until = untilOf(circuit, now);
      summary.circuits.push({ model, state, until: Math.ceil(until / 1000) });
      if (!worst || severity[state] > severity[worst.state]) {
        worst = { state, until, model, reason: circuit.reason };
      }
    }
    if (worst) {
      summary.state = worst.state;
      summary.until = Math.ceil(worst.until / 1000);
      summary.model = summary.circuits.length > 1 ? '' : worst.model;
      summary.reason = worst.reason;
    }
    if (record.authFailure) {
      summary.state = 'auth_failed';
      summary.reason = record.authFailure.reason;
    }
    let attempts = 0;
    let failures = 0;
    let latencySum = 0;
    let latencyCount = 0;
    for (const bucket of record.buckets) {
      if (bucket.start <= now - HEALTH_WINDOW_MS) continue;
      attempts += bucket.attempts;
      failures += bucket.failures;
      latencySum += bucket.latencySum;
      latencyCount += bucket.latencyCount;
    }
    summary.requests = attempts;
    summary.error_rate = attempts > 0 ? Number((failures / attempts).toFixed(3)) : 0;
    summary.latency_ms = latencyCount > 0 ? Math.round(latencySum / latencyCount) : 0;
    return summary;
  }

  private close(circuit: Circuit): void {
    if (circuit.openUntil > 0) this.openCircuits -= 1;
    circuit.openUntil = 0;
  }

  private recordOf(channelId: number): ChannelRecord {
    let record = this.channels.get(channelId);
    if (!record) {
      record = { circuits: new Map(), buckets: [], authFailure: null };
      this.channels.set(channelId, record);
    }
    return record;
  }

  private circuitOf(record: ChannelRecord, model: string): Circuit {
    let circuit = record.circuits.get(circuitKey(model));
    if (!circuit) {
      circuit = {
        consecutiveFailures: 0,
        openUntil: 0,
        trips: 0,
        isProbing: false,
        restUntil: 0,
        reason: '',
      };
      record.circuits.set(circuitKey(model), circuit);
    }
    return circuit;
  }

  /** Ten-second buckets over the window: recording is O(1) and memory is bounded per channel. */
  private count(record: ChannelRecord, now: number, isFailure: boolean, latencyMs: number | null): void {
    const start = now - (now % BUCKET_MS);
    let bucket = record.buckets[record.buckets.length - 1];
    if (!bucket || bucket.start !== start) {
      bucket = { start, attempts: 0, failures: 0, latencySum: 0, latencyCount: 0 };
      record.buckets.push(bucket);
      if (record.buckets.length > BUCKET_COUNT) record.buckets.shift();
    }
    bucket.attempts += 1;
    if (isFailure) bucket.failures += 1;
    if (latencyMs !== null) {
      bucket.latencySum += latencyMs;
      bucket.latencyCount += 1;
    }
  }
}

const severity: Record<CircuitState, number> = { closed: 0, resting: 1, half_open: 2, open: 3 };

function stateOf(circuit: Circuit, now: number): CircuitState {
  if (circuit.openUntil > now) return 'open';
  if (circuit.openUntil > 0) return 'half_open';
  if (circuit.restUntil > now) return 'resting';
  return 'closed';
}

function untilOf(circuit: Circuit, now: number): number {
  const state = stateOf(circuit, now);
  if (state === 'open') return circuit.openUntil;
  if (state === 'resting') return circuit.restUntil;
  return 0;
}

/** The breaker settings from the options (seconds there, milliseconds here). */
export function readBreakerSettings(context: AppContext): BreakerSettings {
  const { options } = context;
  const coolDownMs = Math.max(0, options.getNumber('CircuitBreakerCooldown')) * 1000;
  return {
    failureThreshold: Math.max(0, Math.floor(options.getNumber('CircuitBreakerThreshold'))),
    coolDownMs,
    maxCoolDownMs: Math.max(coolDownMs, options.getNumber('CircuitBreakerMaxCooldown') * 1000),
  };
}

const breakers = new WeakMap<AppContext, ChannelBreaker>();

/** The breaker of this server (one per context). */
export function getChannelBreaker(context: AppContext): ChannelBreaker {
  let breaker = breakers.get(context);
  if (!breaker) {
    breaker = new ChannelBreaker(() => readBreakerSettings(context));
    breakers.set(context, breaker);
  }
  return breaker;
}

/** Every circuit this server holds and its state now, for a metrics gauge. */
export function circuitStates(context: AppContext): CircuitSnapshot[] {
  return breakers.get(context)?.snapshot() ?? [];
}
