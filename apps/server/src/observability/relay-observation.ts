import { performance } from 'node:perf_hooks';
import type { Attributes, Context, Span, SpanKind, Tracer } from '@opentelemetry/api';
import type { FastifyRequest } from 'fastify';
import type { RelayMetrics, TokenCounts } from './relay-metrics';
import type { Telemetry } from './telemetry';
import { openTelemetryApi } from './opentelemetry-api';
import { readTraceParent } from './traceparent';

/** A channel as metrics and spans name it. */
export interface ObservedChannel {
  id: number;
  typeName: string;
}

/** What the story knows about a request before it starts. */
export interface ObservedTarget {
  model: string;
  inboundProtocol: string;
  isStream: boolean;
  /** the caller, for span attributes only (never a metric label) */
  caller: { userId: number; tokenId: number } | null;
  /** performance.now() when the key check began, at the request's arrival; 0 when unknown (then: now) */
  receivedAt: number;
  /** performance.now() when the key check ended; 0 when unknown */
  authenticatedAt: number;
}

/** What an answer is billed, as the settlement is told it. */
export interface ObservedBill {
  usage: TokenCounts;
  cost: number;
}

/** The model label of a request refused before any channel was found: the client's words are not bounded. */
export const UNROUTED_MODEL = '(unrouted)';

/**
 * Metrics and spans of one relay request, told by the story at its seams: the channel picked, each upstream
 * attempt, the answer's first byte, the settlement, the end. Each seam is one call; nothing runs per chunk.
 */
export interface RelayObservation {
  /** the key may use the model and a channel serves it */
  picked(channel: ObservedChannel): void;
  attemptStarted(channel: ObservedChannel): void;
  /** null when the attempt delivered; else its failure's kind and the upstream's status (0: no answer) */
  attemptEnded(failure: { kind: string; upstreamStatus: number } | null): void;
  /** the first byte of a streamed answer went to the client */
  firstByte(): void;
  /** the settlement starts: what the answer is billed, or null when it is refunded */
  settling(billed: ObservedBill | null): void;
  /** the request's end, with the HTTP status its client got */
  finished(status: number): void;
}

/** For requests nobody observes (no MetricsToken, no traces endpoint): does nothing. */
export const unobserved: RelayObservation = {
  picked: () => undefined,
  attemptStarted: () => undefined,
  attemptEnded: () => undefined,
  firstByte: () => undefined,
  settling: () => undefined,
  finished: () => undefined,
};

/** Starts observing a relay request: `unobserved` unless metrics are on or traces are exported. */
export function observeRelay(
  telemetry: Telemetry,
  request: FastifyRequest,
  target: ObservedTarget,
): RelayObservation {
  const metrics = telemetry.metrics();
  const tracer = telemetry.tracing?.tracer ?? null;
  if (!metrics && !tracer) return unobserved;
  const receivedAt = target.receivedAt > 0 ? target.receivedAt : performance.now();
  const spans = tracer ? new RelaySpans(tracer, request, receivedAt, target) : null;
  return new ActiveObservation(metrics, spans, receivedAt, target);
}

class ActiveObservation implements RelayObservation {
  private channelId = '';
  private isRouted = false;
  private attempts = 0;
  private firstByteSeconds: number | null = null;
  private billed: ObservedBill | null = null;

  constructor(
    private readonly metrics: RelayMetrics | null,
    private readonly spans: RelaySpans | null,
    /** performance.now() at the request's arrival */
    private readonly receivedAt: number,
    private readonly target: ObservedTarget,
  ) {}

  picked(channel: ObservedChannel): void {
    this.isRouted = true;
    this.channelId = String(channel.id);
    this.spans?.picked(channel);
  }

  attemptStarted(channel: ObservedChannel): void {
    this.attempts += 1;
    this.channelId = String(channel.id);
    this.spans?.attemptStarted(channel, this.attempts);
  }

  attemptEnded(failure: { kind: string; upstreamStatus: number } | null): void {
    this.metrics?.recordAttempt(this.target.model, this.channelId, failure?.kind ?? null, this.attempts > 1);
    this.spans?.attemptEnded(failure);
  }

  firstByte(): void {
    if (this.firstByteSeconds === null) this.firstByteSeconds = (performance.now() - this.receivedAt) / 1000;
  }

  settling(billed: ObservedBill | null): void {
    this.billed = billed;
    this.spans?.settling();
  }

  finished(status: number): void {
    // A failed settlement answers 500: nothing was charged then.
    const billed = status < 400 ? this.billed : null;
    this.metrics?.recordRequest({
      model: this.isRouted ? this.target.model : UNROUTED_MODEL,
      channel: this.channelId,
      protocol: this.target.inboundProtocol,
      status,
      durationSeconds: (performance.now() - this.receivedAt) / 1000,
      firstByteSeconds: this.firstByteSeconds,
      usage: billed?.usage ?? null,
      quota: billed?.cost ?? 0,
    });
    this.spans?.finished(status, billed, this.attempts, this.channelId, this.firstByteSeconds);
  }
}

/** Epoch milliseconds of a performance.now() reading: span times are given as epoch milliseconds. */
const epochOf = (monotonic: number) => performance.timeOrigin + monotonic;

/**
 * The request's span (its parent the client's `traceparent`, when it sent one) with a child for the key
 * check, the channel pick, each upstream attempt and the settlement.
 */
class RelaySpans {
  private readonly api = openTelemetryApi();
  private readonly root: Span;
  private readonly context: Context;
  private pick: Span | null;
  private attempt: Span | null = null;
  private settlement: Span | null = null;

  constructor(
    private readonly tracer: Tracer,
    request: FastifyRequest,
    receivedAt: number,
    target: ObservedTarget,
  ) {
    const startTime = epochOf(receivedAt);
    const route = request.routeOptions.url ?? '';
    const attributes: Attributes = {
      'http.request.method': request.method,
      'http.route': route,
      'gen_ai.request.model': target.model,
      'gatehouse.inbound_protocol': target.inboundProtocol,
      'gatehouse.stream': target.isStream,
    };
    if (target.caller) {
      attributes['gatehouse.user_id'] = target.caller.userId;
      attributes['gatehouse.key_id'] = target.caller.tokenId;
    }
    this.root = tracer.startSpan(
      `${request.method} ${route}`,
      { kind: this.api.SpanKind.SERVER, startTime, attributes },
      readTraceParent(request.headers.traceparent),
    );
    this.context = this.api.trace.setSpan(this.api.ROOT_CONTEXT, this.root);
    // The key was checked before the body was read: its span is told now, from the time noted then.
    if (target.authenticatedAt > 0) {
      this.child('relay.auth', this.api.SpanKind.INTERNAL, startTime).end(epochOf(target.authenticatedAt));
    }
    this.pick = this.child('relay.channel_pick');
  }

  private child(name: string, kind: SpanKind = this.api.SpanKind.INTERNAL, startTime?: number): Span {
    return this.tracer.startSpan(name, startTime ? { kind, startTime } : { kind }, this.context);
  }

  picked(channel: ObservedChannel): void {
    this.pick?.setAttribute('gatehouse.channel_id', channel.id);
    this.pick?.end();
    this.pick = null;
  }

  attemptStarted(channel: ObservedChannel, attempt: number): void {
    this.attempt = this.child('relay.upstream_attempt', this.api.SpanKind.CLIENT);
    this.attempt.setAttributes({
      'gatehouse.channel_id': channel.id,
      'gatehouse.channel_type': channel.typeName,
      'gatehouse.attempt': attempt,
    });
  }

  attemptEnded(failure: { kind: string; upstreamStatus: number } | null): void {
    const span = this.attempt;
    if (!span) return;
    this.attempt = null;
    if (failure) {
      span.setAttribute('error.type', failure.kind);
      if (failure.upstreamStatus > 0) span.setAttribute('http.response.status_code', failure.upstreamStatus);
      span.setStatus({ code: this.api.SpanStatusCode.ERROR });
    }
    span.end();
  }

  settling(): void {
    this.settlement = this.child('relay.settlement');
  }

  finished(
    status: number,
    billed: ObservedBill | null,
    attempts: number,
    channelId: string,
    firstByteSeconds: number | null,
  ): void {
    const isError = status >= 500;
    // Spans still open: the request ended inside them (a refusal, a client gone, a failed settlement).
    for (const span of [this.pick, this.attempt, this.settlement]) {
      if (!span) continue;
      if (isError) span.setStatus({ code: this.api.SpanStatusCode.ERROR });
      span.end();
    }
    const attributes: Attributes = { 'http.response.status_code': status, 'gatehouse.attempts': attempts };
    if (channelId !== '') attributes['gatehouse.channel_id'] = Number(channelId);
    if (firstByteSeconds !== null) attributes['gatehouse.time_to_first_byte_ms'] = firstByteSeconds * 1000;
    if (billed) {
      attributes['gen_ai.usage.input_tokens'] = billed.usage.promptTokens;
      attributes['gen_ai.usage.output_tokens'] = billed.usage.completionTokens;
      attributes['gatehouse.usage.cache_read_tokens'] = billed.usage.cacheReadTokens ?? 0;
      attributes['gatehouse.usage.cache_write_tokens'] = billed.usage.cacheWriteTokens ?? 0;
      attributes['gatehouse.usage.reasoning_tokens'] = billed.usage.reasoningTokens ?? 0;
      attributes['gatehouse.quota'] = billed.cost;
    }
    this.root.setAttributes(attributes);
    if (isError) this.root.setStatus({ code: this.api.SpanStatusCode.ERROR });
    this.root.end();
  }
}
