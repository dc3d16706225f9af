import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { builtPaths } from './build-children';

/**
 * A node process of the benchmark (a bundle from bench/dist, see build-children.ts), pinned to one core with
 * taskset, which execs node: the pid is node's.
 */
export interface BenchChild {
  readonly name: string;
  readonly pid: number;
  readonly process: ChildProcess;
  /** null while running */
  exitCode(): number | null;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone */
  stop(graceMs?: number): Promise<void>;
  /** starts a new event-loop delay histogram (event-loop-probe.ts) */
  resetLoopDelay(): void;
  /** the histogram since the last reset, in ms */
  readLoopDelay(): Promise<LoopDelay>;
}

/** How late the child's 1 ms timer fired (event-loop-probe.ts), in milliseconds. */
export interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
  count: number;
}

export interface SpawnOptions {
  name: string;
  cpu: number;
  /** node's arguments after the preload: the script and its arguments */
  args: string[];
  /** extra node flags before the preload, e.g. --cpu-prof */
  nodeFlags?: string[];
  /** more modules to preload after ours (absolute paths) */
  preloads?: string[];
  env?: NodeJS.ProcessEnv;
  /** where stdout and stderr go: piped (to read the ready line) or a file descriptor */
  output: 'pipe' | number;
}

const running = new Set<BenchChild>();

let reportDirectory: string | null = null;
/** Where children write their event-loop reports: one temporary folder per run, removed at exit. */
function reportDir(): string {
  if (reportDirectory === null) {
    const made = mkdtempSync(path.join(tmpdir(), 'gatehouse-bench-eld-'));
    reportDirectory = made;
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
  }
  return reportDirectory;
}

export function spawnPinned(options: SpawnOptions): BenchChild {
  const child = spawn(
    'taskset',
    [
      '-c',
      String(options.cpu),
      process.execPath,
      ...(options.nodeFlags ?? []),
      '--import',
      pathToFileURL(builtPaths.exitWithParent).href,
      '--import',
      pathToFileURL(builtPaths.eventLoopProbe).href,
      ...(options.preloads ?? []).flatMap((preload) => ['--import', pathToFileURL(preload).href]),
      ...options.args,
    ],
    {
      cwd: process.cwd(),
      env: { ...process.env, ...options.env },
      stdio: ['pipe', options.output, options.output === 'pipe' ? 'inherit' : options.output],
    },
  );
  if (child.pid === undefined) throw new Error(`could not start ${options.name}`);
  let code: number | null = null;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (exitCode, signal) => {
      code = exitCode ?? (signal ? 128 : 1);
      resolve();
    });
  });
  let reports = 0;
  const benchChild: BenchChild = {
    name: options.name,
    pid: child.pid,
    process: child,
    exitCode: () => code,
    resetLoopDelay: () => void child.stdin?.write('eld:reset\n'),
    async readLoopDelay() {
      reports += 1;
      const file = path.join(reportDir(), `${child.pid}-${reports}.json`);
      child.stdin?.write(`eld:report ${file}\n`);
      const deadline = Date.now() + 5000;
      while (!existsSync(file)) {
        if (Date.now() > deadline || code !== null) throw new Error(`${options.name}: no event-loop report`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const delay = JSON.parse(readFileSync(file, 'utf8')) as LoopDelay;
      rmSync(file, { force: true });
      return delay;
    },
    async stop(graceMs = 15_000) {
      running.delete(benchChild);
      if (code !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
  running.add(benchChild);
  return benchChild;
}

/** Waits for the child's `{"ready":true,…}` line on stdout and answers it; stdout keeps being drained. */
export function waitForReadyLine(child: BenchChild, timeoutMs = 30_000): Promise<Record<string, unknown>> {
  const stdout = child.process.stdout;
  if (!stdout) throw new Error(`${child.name}: stdout is not piped`);
  const lines = createInterface({ input: stdout });
  return new Promise((resolve, reject) => {
    let isReady = false;
    const timer = setTimeout(() => lines.close(), timeoutMs);
    lines.on('line', (line) => {
      if (isReady || !line.startsWith('{"ready":true')) return;
      isReady = true;
      clearTimeout(timer);
      resolve(JSON.parse(line) as Record<string, unknown>);
    });
    lines.on('close', () => {
      clearTimeout(timer);
      if (!isReady) reject(new Error(`${child.name} did not start (exit code ${child.exitCode()})`));
    });
  });
}

/** Stops every child still running: at the end of the run, on Ctrl-C, and on a crash of the harness. */
export async function stopAllChildren(): Promise<void> {
  await Promise.all([...running].map((child) => child.stop()));
}

process.once('exit', () => {
  for (const child of running) child.process.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void stopAllChildren().finally(() => process.exit(130));
  });
}
