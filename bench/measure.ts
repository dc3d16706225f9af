import { buildRequestTarget, type Mode } from './bench-request';
import type { BenchChild, LoopDelay } from './child-process';
import { runLoad } from './load';
import { readCpuMicros, readPeakRssMb, resetPeakRss } from './proc-stats';
import { summarise, type LatencySummary } from './stats';
import { measureTtfb } from './ttfb-client';

export type TargetName = 'direct' | 'floor' | 'gatehouse' | 'portkey';

/** Something to load: the mock itself, or a proxy process in front of it. */
export interface Target {
  name: TargetName;
  baseUrl: string;
  apiKey: string;
  /** more headers each request carries (Portkey's routing headers) */
  headers?: Record<string, string>;
  /** the proxy whose CPU and memory are measured; null for the mock itself */
  proxy: BenchChild | null;
  mock: BenchChild;
}

export interface CellResult {
  target: TargetName;
  mode: Mode;
  connections: number;
  rps: number;
  completed: number;
  failed: number;
  latency: LatencySummary;
  /** CPU of the proxy process per completed request; null for direct */
  cpuMicrosPerRequest: number | null;
  /** CPU of the mock per completed request, for reference */
  mockCpuMicrosPerRequest: number;
  /** VmHWM of the proxy during this cell (or its lifetime peak when the kernel cannot reset it) */
  peakRssMb: number | null;
  /** streaming only: time to first byte, from a separate run of our own client */
  ttfb: LatencySummary | null;
  ttfbFailed: number;
  /** how late the proxy's event loop ran over the cell (both loads), ms; null for direct */
  loopDelay: LoopDelay | null;
  /** with several rounds (`--cell-rounds`): each round's CPU per request, in order */
  cpuRounds?: Array<number | null>;
}

export interface CellPlan {
  mode: Mode;
  connections: number;
  seconds: number;
  ttfbSeconds: number;
}

function assertAlive(target: Target): void {
  for (const child of [target.mock, target.proxy]) {
    if (child && child.exitCode() !== null)
      throw new Error(`${child.name} exited (code ${child.exitCode()})`);
  }
}

/**
 * One cell: autocannon for `seconds` with the proxy's CPU time read from /proc before and after (so CPU per
 * request covers exactly the loaded window) and its peak RSS reset before; then, for streams, a TTFB run.
 */
export async function measureCell(target: Target, plan: CellPlan): Promise<CellResult> {
  assertAlive(target);
  const request = buildRequestTarget(target.baseUrl, target.apiKey, plan.mode, target.headers);
  const proxyPid = target.proxy?.pid ?? null;
  if (proxyPid !== null) resetPeakRss(proxyPid);
  target.proxy?.resetLoopDelay();
  const proxyCpuBefore = proxyPid === null ? 0 : readCpuMicros(proxyPid);
  const mockCpuBefore = readCpuMicros(target.mock.pid);
  const load = await runLoad(request, plan.connections, plan.seconds);
  const proxyCpu = proxyPid === null ? 0 : readCpuMicros(proxyPid) - proxyCpuBefore;
  const mockCpu = readCpuMicros(target.mock.pid) - mockCpuBefore;
  const perRequest = (micros: number) => (load.completed === 0 ? Number.NaN : micros / load.completed);
  const ttfb = plan.mode === 'stream' ? await measureTtfb(request, plan.connections, plan.ttfbSeconds) : null;
  // Read after the TTFB run as well: the peak of the cell covers both loads.
  const peakRssMb = proxyPid === null ? null : readPeakRssMb(proxyPid);
  const loopDelay = target.proxy ? await target.proxy.readLoopDelay() : null;
  assertAlive(target);
  return {
    target: target.name,
    mode: plan.mode,
    connections: plan.connections,
    rps: load.completed / load.seconds,
    completed: load.completed,
    failed: load.failed,
    latency: summarise(load.latencies),
    cpuMicrosPerRequest: proxyPid === null ? null : perRequest(proxyCpu),
    mockCpuMicrosPerRequest: perRequest(mockCpu),
    peakRssMb,
    ttfb: ttfb ? summarise(ttfb.ttfb) : null,
    ttfbFailed: ttfb?.failed ?? 0,
    loopDelay,
  };
}

/** The median of numbers (the mean of the middle two when even); null when any is null. */
function medianOf(values: Array<number | null>): number | null {
  if (values.some((value) => value === null)) return null;
  const sorted = (values as number[]).slice().sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function medianLatency(summaries: LatencySummary[]): LatencySummary {
  return {
    p50: medianOf(summaries.map((summary) => summary.p50)) as number,
    p99: medianOf(summaries.map((summary) => summary.p99)) as number,
    count: summaries.reduce((sum, summary) => sum + summary.count, 0),
  };
}

/**
 * One cell measured in several rounds (`--cell-rounds`): each figure is the median of the rounds' figures, so
 * one round that a burst of load elsewhere on the machine slowed does not decide the cell; counts are summed,
 * and the peak RSS and the loop delay's max are the highest of the rounds.
 */
export function medianCell(rounds: CellResult[]): CellResult {
  if (rounds.length === 1) return rounds[0];
  const [first] = rounds;
  const pick = (read: (round: CellResult) => number | null) => medianOf(rounds.map(read));
  const ttfbs = rounds.map((round) => round.ttfb);
  const loopDelays = rounds.map((round) => round.loopDelay);
  return {
    target: first.target,
    mode: first.mode,
    connections: first.connections,
    rps: pick((round) => round.rps) as number,
    completed: rounds.reduce((sum, round) => sum + round.completed, 0),
    failed: rounds.reduce((sum, round) => sum + round.failed, 0),
    latency: medianLatency(rounds.map((round) => round.latency)),
    cpuMicrosPerRequest: pick((round) => round.cpuMicrosPerRequest),
    cpuRounds: rounds.map((round) => round.cpuMicrosPerRequest),
    mockCpuMicrosPerRequest: pick((round) => round.mockCpuMicrosPerRequest) as number,
    // A peak is the highest of the rounds, not a typical one.
    peakRssMb: rounds.some((round) => round.peakRssMb === null)
      ? null
      : Math.max(...rounds.map((round) => round.peakRssMb as number)),
    ttfb: ttfbs.every((ttfb) => ttfb !== null) ? medianLatency(ttfbs as LatencySummary[]) : null,
    ttfbFailed: rounds.reduce((sum, round) => sum + round.ttfbFailed, 0),
    loopDelay: loopDelays.every((delay) => delay !== null)
      ? {
          p50: medianOf(loopDelays.map((delay) => delay!.p50)) as number,
          p99: medianOf(loopDelays.map((delay) => delay!.p99)) as number,
          max: Math.max(...loopDelays.map((delay) => delay!.max)),
          count: loopDelays.reduce((sum, delay) => sum + delay!.count, 0),
        }
      : null,
  };
}
