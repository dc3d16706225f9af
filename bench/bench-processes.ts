import { builtPaths } from './build-children';
import { spawnPinned, waitForReadyLine, type BenchChild } from './child-process';
import { startGateway, type Gateway } from './gateway-process';
import type { Target } from './measure';
import { startPortkey } from './portkey-process';

/** Cores of the split: driver and mock share one, the proxy under test has the other to itself. */
export const DRIVER_CPU = 0;
export const PROXY_CPU = 1;
export const CLIENT_KEY = 'sk-bench-client';
/** the key of the mock's channel; Portkey forwards the client's key, so its clients send this one */
const UPSTREAM_KEY = 'sk-bench-upstream';

export async function startMock(): Promise<{ child: BenchChild; url: string }> {
  const child = spawnPinned({
    name: 'mock',
    cpu: DRIVER_CPU,
    args: [builtPaths.mock],
    output: 'pipe',
  });
  const ready = await waitForReadyLine(child);
  return { child, url: String(ready.url) };
}

export async function startFloor(upstreamUrl: string): Promise<{ child: BenchChild; url: string }> {
  const child = spawnPinned({
    name: 'floor',
    cpu: PROXY_CPU,
    args: [builtPaths.floor],
    env: { BENCH_UPSTREAM_URL: upstreamUrl },
    output: 'pipe',
  });
  const ready = await waitForReadyLine(child);
  return { child, url: String(ready.url) };
}

export interface BenchProcesses {
  mock: BenchChild;
  gateway: Gateway;
  targets: Target[];
  stop(): Promise<void>;
}

/**
 * The mock, the floor, Gatehouse and Portkey, running and provisioned; the targets in the order measured. The
 * three proxies share the proxy core, one loaded at a time.
 */
export async function startBenchProcesses(): Promise<BenchProcesses> {
  const mock = await startMock();
  const floor = await startFloor(mock.url);
  const gateway = await startGateway({ upstreamUrl: mock.url, cpu: PROXY_CPU });
  const portkey = await startPortkey({ upstreamUrl: mock.url, cpu: PROXY_CPU });
  return {
    mock: mock.child,
    gateway,
    targets: [
      { name: 'direct', baseUrl: mock.url, apiKey: CLIENT_KEY, proxy: null, mock: mock.child },
      { name: 'floor', baseUrl: floor.url, apiKey: CLIENT_KEY, proxy: floor.child, mock: mock.child },
      {
        name: 'gatehouse',
        baseUrl: gateway.url,
        apiKey: gateway.apiKey,
        proxy: gateway.child,
        mock: mock.child,
      },
      {
        name: 'portkey',
        baseUrl: portkey.url,
        apiKey: UPSTREAM_KEY,
        headers: portkey.headers,
        proxy: portkey.child,
        mock: mock.child,
      },
    ],
    async stop() {
      await Promise.all([gateway.stop(), portkey.stop(), floor.child.stop(), mock.child.stop()]);
    },
  };
}
