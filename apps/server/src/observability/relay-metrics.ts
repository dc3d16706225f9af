import type { Registry } from 'prom-client';
import { promClient } from './prom-client';
import { BatchedCounter } from './batched-counter';
import { BatchedHistogram } from './batched-histogram';

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
  readonly registry: Registry = new (promClient().Registry)();
  private readonly requests: BatchedCounter<'model' | 'channel' | 'protocol' | 'status'>;
  private readonly tokens: BatchedCounter<'model' | 'channel' | 'type'>;
  private readonly quota: BatchedCounter<'model' | 'channel'>;
  private readonly duration: BatchedHistogram<'model' | 'protocol'>;
  private readonly firstToken: BatchedHistogram<'model' | 'protocol'>;
  private readonly attempts: BatchedCounter<'model' | 'channel' | 'result'>;
  private readonly retries: BatchedCounter<'model'>;
  private readonly upstreamErrors: BatchedCounter<'model' | 'channel' | 'kind'>;
  private circuitStates: CircuitStateSource | null = null;

  constructor() {
    const registry = this.registry;
    this.requests = new BatchedCounter({
      name: 'gatehouse_relay_requests_total',
      help: 'Relay requests answered, by model, last channel, inbound protocol and HTTP status',
      labelNames: ['model', 'channel', 'protocol', 'status'],
      registry,
    });
    this.tokens = new BatchedCounter({
      name: 'gatehouse_relay_tokens_total',
      help: 'Tokens billed, by type: prompt, completion, cache_read, cache_write, reasoning',
      labelNames: ['model', 'channel', 'type'],
      registry,
    });
    this.quota = new BatchedCounter({
      name: 'gatehouse_relay_quota_total',
      help: 'Quota charged for relayed requests (500000 = 1 USD by default)',
      labelNames: ['model', 'channel'],
      registry,
    });
    this.duration = new BatchedHistogram({
      name: 'gatehouse_relay_request_duration_seconds',
      help: 'Time from a relay request arriving to its answer ending',
      labelNames: ['model', 'protocol'],
      buckets: DURATION_BUCKETS,
      registry,
    });
    this.firstToken = new BatchedHistogram({
      name: 'gatehouse_relay_time_to_first_token_seconds',
      help: 'Streams: time from the request arriving to the first byte of the answer sent to the client',
      labelNames: ['model', 'protocol'],
      buckets: FIRST_TOKEN_BUCKETS,
      registry,
    });
    this.attempts = new BatchedCounter({
      name: 'gatehouse_upstream_attempts_total',
      help: 'Upstream attempts, by channel and result (success or error)',
      labelNames: ['model', 'channel', 'result'],
      registry,
    });
    this.retries = new BatchedCounter({
      name: 'gatehouse_relay_retries_total',
      help: 'Attempts after the first one of a request (on another channel)',
      labelNames: ['model'],
      registry,
    });
    this.upstreamErrors = new BatchedCounter({
      name: 'gatehouse_upstream_errors_total',
      help: 'Failed upstream attempts, by kind of failure',
      labelNames: ['model', 'channel', 'kind'],
      registry,
    });
    const read = () => this.circuitStates;
    new (promClient().Gauge)({
      name: 'gatehouse_circuit_state',
      help: 'Circuit breaker state per channel and model: 0 closed, 1 half-open, 2 open, 3 resting (Retry-After)',
      labelNames: ['channel', 'model'],
      registers: [registry],
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
    promClient().collectDefaultMetrics({ register: registry });
  }

  /** The circuit breaker's read function: its states are exported at every scrape. */
  setCircuitStateSource(source: CircuitStateSource): void {
    this.circuitStates = source;
  }

  recordRequest(sample: RelayRequestSample): void {
    const { model, channel, protocol } = sample;
    this.requests.add(1, model, channel, protocol, String(sample.status));
    this.duration.observe(sample.durationSeconds, model, protocol);
    if (sample.firstByteSeconds !== null) {
      this.firstToken.observe(sample.firstByteSeconds, model, protocol);
    }
    const { usage } = sample;
    if (usage) {
      this.tokens.add(usage.promptTokens, model, channel, 'prompt');
      this.tokens.add(usage.completionTokens, model, channel, 'completion');
      this.tokens.add(usage.cacheReadTokens ?? 0, model, channel, 'cache_read');
      this.tokens.add(usage.cacheWriteTokens ?? 0, model, channel, 'cache_write');
      this.tokens.add(usage.reasoningTokens ?? 0, model, channel, 'reasoning');
    }
    if (sample.quota > 0) this.quota.add(sample.quota, model, channel);
  }

  /** One upstream attempt; `failureKind` null when it succeeded, `isRetry` when it was not the first. */
  recordAttempt(model: string, channel: string, failureKind: string | null, isRetry: boolean): void {
    this.attempts.add(1, model, channel, failureKind === null ? 'success' : 'error');
    if (failureKind !== null) this.upstreamErrors.add(1, model, channel, failureKind);
    if (isRetry) this.retries.add(1, model);
  }
}
