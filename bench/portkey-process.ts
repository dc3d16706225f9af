import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { builtPaths } from './build-children';
import { spawnPinned, type BenchChild } from './child-process';
import { findFreePort } from './free-port';

/** Portkey's gateway from npm (a root devDependency), run as its own CLI does, with its build as shipped. */
export interface Portkey {
  child: BenchChild;
  url: string;
  /** what a client sends so that Portkey relays to the mock as an OpenAI upstream */
  headers: Record<string, string>;
  stop(): Promise<void>;
}

function portkeyEntry(): string {
  const require = createRequire(import.meta.url);
  return path.join(
    path.dirname(require.resolve('@portkey-ai/gateway/package.json')),
    'build/start-server.js',
  );
}

async function waitForPort(url: string, child: BenchChild, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode() !== null) throw new Error(`Portkey exited with code ${child.exitCode()}`);
    try {
      await fetch(url);
      return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Portkey did not listen within ${timeoutMs} ms`);
}

/**
 * Starts Portkey on `cpu` (`--port`, `--headless`: no console UI). Each request names the provider and the
 * mock as its custom host (`x-portkey-provider`, `x-portkey-custom-host`; loopback hosts are trusted by
 * default) and carries the upstream key, which Portkey forwards: the simplest setup its documentation shows.
 */
export async function startPortkey(options: { upstreamUrl: string; cpu: number }) {
  const logDir = mkdtempSync(path.join(tmpdir(), 'gatehouse-bench-portkey-'));
  const logFd = openSync(path.join(logDir, 'portkey.log'), 'a');
  const port = await findFreePort();
  const child = spawnPinned({
    name: 'portkey',
    cpu: options.cpu,
    preloads: [builtPaths.portkeyPreload],
    args: [portkeyEntry(), `--port=${port}`, '--headless'],
    env: { NODE_ENV: 'production' },
    output: logFd,
  });
  closeSync(logFd);
  const url = `http://127.0.0.1:${port}`;
  const removeLogs = () => rmSync(logDir, { recursive: true, force: true });
  process.once('exit', removeLogs);
  const stop = async () => {
    await child.stop();
    removeLogs();
    process.off('exit', removeLogs);
  };
  try {
    await waitForPort(url, child, 30_000);
  } catch (error) {
    await stop();
    throw error;
  }
  const portkey: Portkey = {
    child,
    url,
    headers: { 'x-portkey-provider': 'openai', 'x-portkey-custom-host': `${options.upstreamUrl}/v1` },
    stop,
  };
  return portkey;
}
