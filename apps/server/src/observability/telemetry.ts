import type { AppContext } from '../context';
import { RelayMetrics, type CircuitStateSource } from './relay-metrics';
import { startTracing, type Tracing } from './tracing';

/** The metrics and traces of one server (one context). */
export interface Telemetry {
  /** the metrics to record into, or null while MetricsToken is empty (nothing is counted then) */
  metrics(): RelayMetrics | null;
  /** null unless an OTLP traces endpoint is configured */
  readonly tracing: Tracing | null;
  /** the circuit breaker's read function, exported as gatehouse_circuit_state at every scrape */
  setCircuitStateSource(source: CircuitStateSource): void;
}

const telemetries = new WeakMap<AppContext, Telemetry>();

/**
 * The context's telemetry, made on first use. The metrics registry (with its event-loop monitor) starts only
 * once a MetricsToken is set, and then lives as long as the server: counters count from then on. Traces are
 * flushed when the context closes.
 */
export function getTelemetry(context: AppContext): Telemetry {
  const existing = telemetries.get(context);
  if (existing) return existing;
  let metrics: RelayMetrics | null = null;
  let circuitStates: CircuitStateSource | null = null;
  const tracing = startTracing(context.config.traces);
  const telemetry: Telemetry = {
    metrics() {
      if (context.options.get('MetricsToken') === '') return null;
      if (!metrics) {
        metrics = new RelayMetrics();
        if (circuitStates) metrics.setCircuitStateSource(circuitStates);
      }
      return metrics;
    },
    tracing,
    setCircuitStateSource(source) {
      circuitStates = source;
      metrics?.setCircuitStateSource(source);
    },
  };
  telemetries.set(context, telemetry);
  if (tracing) context.closers.push(() => tracing.shutdown());
  return telemetry;
}
