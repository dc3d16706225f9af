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
