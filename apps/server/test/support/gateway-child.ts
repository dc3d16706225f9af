import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleServer } from '../../bundle.mjs';
import { findFreePort } from '../../../../bench/free-port';

/** The real server in a process of its own, bundled as apps/server/build.mjs bundles it, to kill for real. */
export interface GatewayChild {
  url: string;
  process: ChildProcess;
  /** what the server wrote, for a failure's message */
  output(): string;
  /** SIGKILL: no shutdown hook runs, nothing is flushed */
  kill(): Promise<void>;
  /** SIGTERM, the graceful stop; answers the exit code */
  stop(): Promise<number | null>;
}

const SERVER_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Bundles src/main.ts into a directory of its own under node_modules/.cache (so its packages resolve from the
 * repository's node_modules, and the shared dist/ is left alone); answers the file.
 */
export async function bundleGateway(): Promise<string> {
  const cache = path.join(SERVER_ROOT, '../../node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  return bundleServer(path.join(SERVER_ROOT, '../..'), mkdtempSync(path.join(cache, 'gatehouse-child-')));
}

/**
 * Starts the bundle on a database (SQL_DSN, or SQLITE_PATH when empty) and waits until it answers. `env` adds
 * or overrides variables (REDIS_CONN_STRING, WORKERS, …).
 */
export async function startGatewayChild(
  bundle: string,
  database: { sqlDsn: string; sqlitePath: string },
  env: Record<string, string> = {},
): Promise<GatewayChild> {
  const port = await findFreePort();
  const child = spawn(process.execPath, ['--enable-source-maps', bundle], {
    cwd: path.join(SERVER_ROOT, '../..'),
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      SQL_DSN: database.sqlDsn,
      SQLITE_PATH: database.sqlitePath,
      REDIS_CONN_STRING: '',
      SESSION_SECRET: randomBytes(16).toString('hex'),
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the gateway exited (${child.exitCode}): ${output}`);
    try {
      if ((await fetch(`${url}/api/status`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the gateway did not answer within 60 s: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    process: child,
    output: () => output,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
