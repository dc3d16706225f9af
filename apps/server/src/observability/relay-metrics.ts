import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** A channel × model circuit as the breaker reports it, for the state gauge. */
export interface CircuitStateSample {
  channelId: number;
  model: string;
  state: 'closed' | 'half_open' | 'open' | 'resting';
}

/** Where the breaker's current states are read at each scrape; see setCircuitStateSource. */
export type CircuitStateSource = () => Iterable<CircuitStateSample>;

const CIRCUIT_STATE_VALUES: Record<CircuitStateSample['state'], number> = {
  closed: 0,
  half_open: 1,
  open: 2,
  resting: 3,
};

/** Token kinds of the tokens counter, as TokenUsage carries them. */
export interface TokenCounts {
  promptTokens: number;
  completionTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  reasoningTokens?: number;
}

/** A finished relay request, as the metrics count it. */
export interface RelayRequestSample {
  model: string;
  /** the channel that answered or failed last, '' when none was picked */
  channel: string;
  protocol: string;
  status: number;
  durationSeconds: number;
  /** streams only: when the answer's first byte was written */
  firstByteSeconds: number | null;
  usage: TokenCounts | null;
  quota: number;
}

/**
 * Streamed answers start in well under a second from a fast vendor and in tens of seconds from a thinking
 * model; whole answers of long generations take minutes.
 */
const DURATION_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120, 300];
const FIRST_TOKEN_BUCKETS = [0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.5, 2.5, 4, 8, 15, 30, 60];

/**
 * The gateway's Prometheus metrics, in a registry of its own (never prom-client's global one). Labels are only
 * what configuration bounds: model names a channel serves, channel ids, protocols, statuses and failure kinds —
 * never a user or a key.
 */
export class RelayMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'model' | 'channel' | 'protocol' | 'status'>;
  private readonly tokens: Counter<'model' | 'channel' | 'type'>;
  private readonly quota: Counter<'model' | 'channel'>;
  private readonly duration: Histogram<'model' | 'protocol'>;
  private readonly firstToken: Histogram<'model' | 'protocol'>;
  private readonly attempts: Counter<'model' | 'channel' | 'result'>;
  private readonly retries: Counter<'model'>;
  private readonly upstreamErrors: Counter<'model' | 'channel' | 'kind'>;
  private circuitStates: CircuitStateSource | null = null;

  constructor() {
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'gatehouse_relay_requests_total',
      help: 'Relay requests answered, by model, last channel, inbound protocol and HTTP status',
      labelNames: ['model', 'channel', 'protocol', 'status'],
      registers,
    });
    this.tokens = new Counter({
      name: 'gatehouse_relay_tokens_total',
      help: 'Tokens billed, by type: prompt, completion, cache_read, cache_write, reasoning',
      labelNames: ['model', 'channel', 'type'],
      registers,
    });
    this.quota = new Counter({
      name: 'gatehouse_relay_quota_total',
      help: 'Quota charged for relayed requests (500000 = 1 USD by default)',
      labelNames: ['model', 'channel'],
      registers,
    });
    this.duration = new Histogram({
      name: 'gatehouse_relay_request_duration_seconds',
      help: 'Time from a relay request arriving to its answer ending',
      labelNames: ['model', 'protocol'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.firstToken = new Histogram({
      name: 'gatehouse_relay_time_to_first_token_seconds',
      help: 'Streams: time from the request arriving to the first byte of the answer sent to the client',
      labelNames: ['model', 'protocol'],
      buckets: FIRST_TOKEN_BUCKETS,
      registers,
    });
    this.attempts = new Counter({
      name: 'gatehouse_upstream_attempts_total',
      help: 'Upstream attempts, by channel and result (success or error)',
      labelNames: ['model', 'channel', 'result'],
      registers,
    });
    this.retries = new Counter({
      name: 'gatehouse_relay_retries_total',
      help: 'Attempts after the first one of a request (on another channel)',
      labelNames: ['model'],
      registers,
    });
    this.upstreamErrors = new Counter({
      name: 'gatehouse_upstream_errors_total',
      help: 'Failed upstream attempts, by kind of failure',
      labelNames: ['model', 'channel', 'kind'],
      registers,
    });
    const read = () => this.circuitStates;
    new Gauge({
      name: 'gatehouse_circuit_state',
      help: 'Circuit breaker state per channel and model: 0 closed, 1 half-open, 2 open, 3 resting (Retry-After)',
      labelNames: ['channel', 'model'],
      registers,
      collect() {
        this.reset();
        const source = read();
        if (!source) return;
        for (const sample of source()) {
          this.set(
            { channel: String(sample.channelId), model: sample.model },
            CIRCUIT_STATE_VALUES[sample.state],
          );
        }
      },
    });
    // Process CPU, memory, handles, GC and event-loop delay (p50, p90, p99 from monitorEventLoopDelay).
    collectDefaultMetrics({ register: this.registry });
  }

  /** The circuit breaker's read function: its states are exported at every scrape. */
  setCircuitStateSource(source: CircuitStateSource): void {
    this.circuitStates = source;
  }

  recordRequest(sample: RelayRequestSample): void {
    const { model, channel, protocol } = sample;
    this.requests.inc({ model, channel, protocol, status: String(sample.status) });
    this.duration.observe({ model, protocol }, sample.durationSeconds);
    if (sample.firstByteSeconds !== null)
      this.firstToken.observe({ model, protocol }, sample.firstByteSeconds);
    const { usage } = sample;
    if (usage) {
      this.addTokens(model, channel, 'prompt', usage.promptTokens);
      this.addTokens(model, channel, 'completion', usage.completionTokens);
      this.addTokens(model, channel, 'cache_read', usage.cacheReadTokens);
      this.addTokens(model, channel, 'cache_write', usage.cacheWriteTokens);
      this.addTokens(model, channel, 'reasoning', usage.reasoningTokens);
    }
    if (sample.quota > 0) this.quota.inc({ model, channel }, sample.quota);
  }

  /** One upstream attempt; `failureKind` null when it succeeded, `isRetry` when it was not the first. */
  recordAttempt(model: string, channel: string, failureKind: string | null, isRetry: boolean): void {
    this.attempts.inc({ model, channel, result: failureKind === null ? 'success' : 'error' });
    if (failureKind !== null) this.upstreamErrors.inc({ model, channel, kind: failureKind });
    if (isRetry) this.retries.inc({ model });
  }

  private addTokens(model: string, channel: string, type: string, count: number | undefined): void {
    // Zero tokens of a kind still creates its series, so a dashboard's sum exists from the first request.
    this.tokens.inc({ model, channel, type }, count ?? 0);
  }
}
