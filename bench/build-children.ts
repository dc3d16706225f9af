import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, stop } from 'esbuild';
import { bundleServer } from '../apps/server/bundle.mjs';

/** bench/dist: the bundles every child process runs with plain node (no TypeScript loader in them). */
export const BUILD_DIR = fileURLToPath(new URL('./dist/', import.meta.url));
const BENCH_DIR = fileURLToPath(new URL('.', import.meta.url));

export const builtPaths = {
  mock: path.join(BUILD_DIR, 'mock-upstream.mjs'),
  floor: path.join(BUILD_DIR, 'floor-proxy.mjs'),
  exitWithParent: path.join(BUILD_DIR, 'exit-with-parent.mjs'),
  eventLoopProbe: path.join(BUILD_DIR, 'event-loop-probe.mjs'),
  portkeyPreload: path.join(BUILD_DIR, 'portkey-preload.mjs'),
  gateway: path.join(BUILD_DIR, 'gateway', 'main.js'),
};

/** The server root measured: this checkout, or BENCH_SERVER_ROOT (another checkout, to compare a change). */
export function serverRoot(): string {
  return path.resolve(process.env.BENCH_SERVER_ROOT ?? path.join(BENCH_DIR, '..'));
}

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
} as const;

/**
 * The gateway, bundled exactly as apps/server/build.mjs bundles dist/ (main.js and its chunks), but into a
 * folder of bench/dist so the shared dist/ other people test against is left alone; packages resolve from
 * the root node_modules. Answers the entry's path.
 */
function buildGateway(root: string, outdir: string): Promise<string> {
  return bundleServer(root, outdir);
}

/** Bundles the mock, the floor, the preloads and the gateway of serverRoot(). */
export async function buildBenchChildren(): Promise<void> {
  await Promise.all([
    build({ ...common, entryPoints: [path.join(BENCH_DIR, 'mock-upstream.ts')], outfile: builtPaths.mock }),
    build({ ...common, entryPoints: [path.join(BENCH_DIR, 'floor-proxy.ts')], outfile: builtPaths.floor }),
    build({
      ...common,
      entryPoints: [path.join(BENCH_DIR, 'exit-with-parent.ts')],
      outfile: builtPaths.exitWithParent,
    }),
    build({
      ...common,
      entryPoints: [path.join(BENCH_DIR, 'event-loop-probe.ts')],
      outfile: builtPaths.eventLoopProbe,
    }),
    build({
      ...common,
      entryPoints: [path.join(BENCH_DIR, 'portkey-preload.ts')],
      outfile: builtPaths.portkeyPreload,
    }),
    buildGateway(serverRoot(), path.dirname(builtPaths.gateway)),
  ]);
  // esbuild's service process would otherwise idle on the driver's core for the whole run.
  await stop();
}

/** One gateway bundle per server tree compared (compare.ts); answers their paths in order. */
export async function buildComparedGateways(roots: string[]): Promise<string[]> {
  const entries = await Promise.all(
    roots.map((root, index) => buildGateway(path.resolve(root), path.join(BUILD_DIR, `gateway-${index}`))),
  );
  await stop();
  return entries;
}
