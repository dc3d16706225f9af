import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildRequestTarget, type Mode } from './bench-request';
import { CLIENT_KEY, PROXY_CPU, startFloor, startMock } from './bench-processes';
import { startGateway } from './gateway-process';
import { runLoad } from './load';

/**
 * `--syscalls`: how many system calls each proxy makes per request, counted by `strace -c -f` (every thread)
 * while it serves a load. Counts, not times: a shared machine slows a run but does not change how many pages
 * a commit writes or how many locks a transaction takes, so two trees compare exactly where CPU per request
 * swings by half between runs. strace slows the traced process several times, so the count of calls that
 * wait (futex, epoll_pwait) depends on timing; the writes, reads, locks and syncs do not.
 */

const STRACE = '/usr/bin/strace';
/** A call made less often than this per request is left out of the table. */
const SHOWN_PER_REQUEST = 0.05;

export interface SyscallPlan {
  modes: Mode[];
  concurrencies: number[];
  seconds: number;
  warmupSeconds: number;
}

interface Counted {
  requests: number;
  /** calls per syscall name over the window */
  calls: Map<string, number>;
}

/** The rows of `strace -c`'s summary: `% time  seconds  usecs/call  calls  [errors]  syscall`. */
export function parseStraceSummary(text: string): Map<string, number> {
  const calls = new Map<string, number>();
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 5 || !/^\d+(\.\d+)?$/.test(fields[0]!)) continue;
    const name = fields[fields.length - 1]!;
    if (name === 'total') continue;
    calls.set(name, Number(fields[3]));
  }
  return calls;
}

async function countDuringLoad(
  pid: number,
  target: ReturnType<typeof buildRequestTarget>,
  connections: number,
  seconds: number,
): Promise<Counted> {
  const output = path.join(tmpdir(), `gatehouse-bench-strace-${pid}-${Date.now()}.txt`);
  const strace = spawn(STRACE, ['-c', '-f', '-p', String(pid), '-o', output], { stdio: 'ignore' });
  const exited = new Promise((resolve) => strace.once('exit', resolve));
  // strace attaches to every thread before it counts; half a second is ample on an idle process.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const load = await runLoad(target, connections, seconds);
  strace.kill('SIGINT');
  await exited;
  const calls = parseStraceSummary(await readFile(output, 'utf8'));
  await rm(output, { force: true });
  return { requests: load.completed, calls };
}

function formatCell(mode: Mode, connections: number, floor: Counted, gatehouse: Counted): string {
  const names = new Set([...floor.calls.keys(), ...gatehouse.calls.keys()]);
  const perRequest = (counted: Counted, name: string) => (counted.calls.get(name) ?? 0) / counted.requests;
  const rows = [...names]
    .filter((name) => Math.max(perRequest(floor, name), perRequest(gatehouse, name)) >= SHOWN_PER_REQUEST)
    .sort((a, b) => perRequest(gatehouse, b) - perRequest(gatehouse, a))
    .map(
      (name) =>
        `| ${name} | ${perRequest(floor, name).toFixed(2)} | ${perRequest(gatehouse, name).toFixed(2)} |`,
    );
  return [
    `#### ${mode === 'json' ? 'JSON' : 'Streams'}, c=${connections} (${floor.requests} / ${gatehouse.requests} requests traced)`,
    '',
    '| syscall | floor per request | Gatehouse per request |',
    '| --- | --- | --- |',
    ...rows,
  ].join('\n');
}

export async function runSyscalls(plan: SyscallPlan): Promise<string> {
  if (!existsSync(STRACE)) throw new Error(`--syscalls needs strace (${STRACE}): apt-get install -y strace`);
  try {
    execFileSync(STRACE, ['-c', '-o', '/dev/null', 'true'], { stdio: 'ignore' });
  } catch {
    throw new Error('strace cannot trace here (ptrace refused?)');
  }
  const mock = await startMock();
  const floor = await startFloor(mock.url);
  const gateway = await startGateway({ upstreamUrl: mock.url, cpu: PROXY_CPU });
  const sections: string[] = [];
  try {
    for (const mode of plan.modes) {
      const proxies = [
        { pid: floor.child.pid, target: buildRequestTarget(floor.url, CLIENT_KEY, mode) },
        { pid: gateway.child.pid, target: buildRequestTarget(gateway.url, gateway.apiKey, mode) },
      ];
      for (const connections of plan.concurrencies) {
        const counted: Counted[] = [];
        for (const proxy of proxies) {
          // Untraced first: V8 settles on the code this load takes before anything is counted.
          await runLoad(proxy.target, connections, plan.warmupSeconds);
          counted.push(await countDuringLoad(proxy.pid, proxy.target, connections, plan.seconds));
        }
        const section = formatCell(mode, connections, counted[0]!, counted[1]!);
        console.log(`\n${section}`);
        sections.push(section);
      }
    }
  } finally {
    await gateway.stop();
    await floor.child.stop();
    await mock.child.stop();
  }
  return sections.join('\n\n');
}
