import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createBenchDatabase } from './bench-database';
import { builtPaths } from './build-children';
import { spawnPinned, type BenchChild } from './child-process';
import { BENCH_MODEL } from './bench-request';
import { findFreePort } from './free-port';
import { ManagementClient } from './management-client';
import { BENCH_CLAUDE_MODEL } from './protocol-requests';

const UPSTREAM_KEY = 'sk-bench-upstream';

export interface Gateway {
  child: BenchChild;
  url: string;
  /** the API key clients send, with its sk- prefix */
  apiKey: string;
  management: ManagementClient;
  dataDir: string;
  /** the server's own log (pino JSON lines) */
  logFile: string;
  stop(): Promise<void>;
}

export interface GatewayOptions {
  upstreamUrl: string;
  cpu: number;
  /** the bundle to run; the one of this checkout (or BENCH_SERVER_ROOT) by default */
  entry?: string;
  /** run the server with --cpu-prof; the .cpuprofile is written into dataDir when it stops */
  isProfiled?: boolean;
  /** more node flags (e.g. V8 heap sizing), to compare runtime settings */
  nodeFlags?: string[];
  /** more environment variables (e.g. glibc's MALLOC_ARENA_MAX), to compare runtime settings */
  env?: Record<string, string>;
}

async function waitForStatus(url: string, child: BenchChild, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode() !== null) throw new Error(`the gateway exited with code ${child.exitCode()}`);
    try {
      const response = await fetch(`${url}/api/status`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the gateway did not answer /api/status within ${timeoutMs} ms`);
}

/**
 * Creates, through the real management API as root, what a paying client needs: enough quota on root, an
 * OpenAI channel (type 1) and an Anthropic channel (type 14, for the protocol table) whose base URL is the
 * mock, and a key with a limited remaining quota (so billing touches both the user's and the key's balance,
 * as for most keys).
 */
async function provision(management: ManagementClient, upstreamUrl: string): Promise<string> {
  await management.login('root', '123456');
  const root = await management.call<{ id: number }>('GET', '/api/user/self');
  await management.call('PUT', '/api/user/', { id: root.id, quota: 1_000_000_000_000 });
  await management.call('POST', '/api/channel/', {
    type: 1,
    name: 'bench mock upstream',
    key: UPSTREAM_KEY,
    base_url: upstreamUrl,
    models: BENCH_MODEL,
    group: 'default',
  });
  await management.call('POST', '/api/channel/', {
    type: 14,
    name: 'bench mock upstream (Anthropic Messages)',
    key: UPSTREAM_KEY,
    base_url: upstreamUrl,
    models: BENCH_CLAUDE_MODEL,
    group: 'default',
  });
  const token = await management.call<{ key: string }>('POST', '/api/token/', {
    name: 'bench',
    remain_quota: 500_000_000_000,
    expired_time: -1,
    unlimited_quota: false,
  });
  return `sk-${token.key}`;
}

/** Starts the real server on a fresh SQLite file, pinned to `cpu`, and provisions it. */
export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gatehouse-bench-'));
  const logFile = path.join(dataDir, 'server.log');
  const logFd = openSync(logFile, 'a');
  const port = await findFreePort();
  const database = await createBenchDatabase();
  const child = spawnPinned({
    name: 'gateway',
    cpu: options.cpu,
    // As `npm start` runs it: keep in sync with the flags in scripts/start.mjs.
    nodeFlags: [
      '--heap-growing-percent=50',
      ...(options.isProfiled ? ['--cpu-prof', `--cpu-prof-dir=${dataDir}`] : []),
      ...(options.nodeFlags ?? []),
    ],
    args: [options.entry ?? builtPaths.gateway],
    env: {
      PORT: String(port),
      SQL_DSN: database.dsn,
      SQLITE_PATH: path.join(dataDir, 'gatehouse.db'),
      REDIS_CONN_STRING: '',
      SESSION_SECRET: randomBytes(32).toString('hex'),
      NODE_ENV: 'production',
      // The server's default level (info logs every request): what an operator runs unless told otherwise.
      LOG_LEVEL: process.env.BENCH_GATEWAY_LOG_LEVEL ?? 'info',
      // The server's default (off) unless told.
      SQLITE_WRITE_THREAD: process.env.BENCH_SQLITE_WRITE_THREAD ?? 'off',
      ...options.env,
    },
    output: logFd,
  });
  closeSync(logFd);
  const url = `http://127.0.0.1:${port}`;
  const removeData = () => rmSync(dataDir, { recursive: true, force: true });
  // Also when the harness ends without stopping the gateway (an error, Ctrl-C).
  process.once('exit', removeData);
  const stop = async () => {
    await child.stop();
    await database.drop();
    removeData();
    process.off('exit', removeData);
  };
  try {
    await waitForStatus(url, child, 90_000);
    const management = new ManagementClient(url);
    const apiKey = await provision(management, options.upstreamUrl);
    return { child, url, apiKey, management, dataDir, logFile, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
