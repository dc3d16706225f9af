import { spawn, type ChildProcess } from 'node:child_process';
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
}

export interface SpawnOptions {
  name: string;
  cpu: number;
  /** node's arguments after the preload: the script and its arguments */
  args: string[];
  /** extra node flags before the preload, e.g. --cpu-prof */
  nodeFlags?: string[];
  env?: NodeJS.ProcessEnv;
  /** where stdout and stderr go: piped (to read the ready line) or a file descriptor */
  output: 'pipe' | number;
}

const running = new Set<BenchChild>();

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
  const benchChild: BenchChild = {
    name: options.name,
    pid: child.pid,
    process: child,
    exitCode: () => code,
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
