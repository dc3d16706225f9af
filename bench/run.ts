import { execFileSync } from 'node:child_process';
import { availableParallelism, cpus } from 'node:os';
import { parseArgs } from 'node:util';
import type { Mode } from './bench-request';
import { checkBilling } from './billing-check';
import { buildBenchChildren, serverRoot } from './build-children';
import { checkAnswers } from './check-answers';
import { runComparison } from './compare';
import { DRIVER_CPU, PROXY_CPU, startBenchProcesses, startMock } from './bench-processes';
import { startGateway } from './gateway-process';
import { stopAllChildren } from './child-process';
import { measureCell, medianCell, type CellResult, type Target } from './measure';
import { formatProtocolReport, measureProtocols, type ProtocolPlan } from './measure-protocols';
import { runMemory } from './memory';
import { runSoak } from './soak';
import { runSyscalls } from './syscalls';
import { PROFILE_CONNECTIONS, runProfile } from './profile';
import { PROTOCOL_PATHS, type ProtocolPath } from './protocol-requests';
import { writeReadmeSection } from './readme-section';
import { readRssMb } from './proc-stats';
import { formatReport, formatSideBySide, type IdleRss } from './report';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    'ttfb-duration': { type: 'string', default: '3' },
    warmup: { type: 'string', default: '2' },
    'cell-warmup': { type: 'string', default: '3' },
    'cell-rounds': { type: 'string', default: '1' },
    concurrency: { type: 'string' },
    profile: { type: 'boolean', default: false },
    path: { type: 'string', default: 'chat' },
    memory: { type: 'boolean', default: false },
    syscalls: { type: 'boolean', default: false },
    soak: { type: 'boolean', default: false },
    'soak-rounds': { type: 'string', default: '10' },
    'soak-seconds': { type: 'string', default: '20' },
    compare: { type: 'string' },
    mode: { type: 'string' },
    rate: { type: 'string', default: '120' },
    'compare-connections': { type: 'string' },
    rounds: { type: 'string', default: '4' },
    'write-readme': { type: 'boolean', default: false },
    protocols: { type: 'boolean', default: false },
    'protocol-rate': { type: 'string', default: '200' },
    'protocol-rounds': { type: 'string', default: '3' },
  },
});
const seconds = Number(args.duration);
const ttfbSeconds = Number(args['ttfb-duration']);
const warmupSeconds = Number(args.warmup);
const cellWarmupSeconds = Number(args['cell-warmup']);
const cellRounds = Number(args['cell-rounds']);
if (!Number.isInteger(cellRounds) || cellRounds < 1)
  throw new Error('--cell-rounds must be a whole number ≥ 1');
const concurrencies = (args.concurrency ?? '1,32,256').split(',').map(Number);
const MODES: Mode[] = ['json', 'stream'];
const protocolPlan: ProtocolPlan = {
  rate: Number(args['protocol-rate']),
  seconds,
  rounds: Number(args['protocol-rounds']),
  warmupSeconds,
};

function readProtocolPath(value: string | undefined): ProtocolPath {
  const found = PROTOCOL_PATHS.find((known) => known === value);
  if (!found) throw new Error(`--path must be one of ${PROTOCOL_PATHS.join(', ')}`);
  return found;
}

function uptime(): string {
  return execFileSync('uptime', { encoding: 'utf8' }).trim();
}

/** Driver and mock on core 0 (this process included), proxies on core 1: see bench-processes.ts. */
function pinSelf(): void {
  if (availableParallelism() < 2) {
    console.warn('fewer than 2 cores: nothing is pinned, numbers mix driver and proxy');
    return;
  }
  execFileSync('taskset', ['-a', '-cp', String(DRIVER_CPU), String(process.pid)], { stdio: 'ignore' });
}

/** Which server was measured: the commit, and whether apps/server had uncommitted changes. */
function serverVersion(): string {
  const git = (...gitArgs: string[]) =>
    execFileSync('git', ['-C', serverRoot(), ...gitArgs], { encoding: 'utf8' }).trim();
  try {
    const isDirty = git('status', '--porcelain', '--', 'apps/server', 'packages/shared') !== '';
    return `server at ${git('rev-parse', '--short', 'HEAD')}${isDirty ? ' plus uncommitted changes' : ''}`;
  } catch {
    return `server from ${serverRoot()}`;
  }
}

/** When, on what, and which server. */
function machineLine(): string {
  return (
    `- ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${cpus()[0]?.model ?? 'unknown CPU'}, ` +
    `${cpus().length} cores, Node ${process.version}, ${serverVersion()}`
  );
}

function machineNote(before: string, after: string): string {
  return [
    machineLine(),
    `- ${seconds} s per cell (autocannon), ${ttfbSeconds} s TTFB run per streaming cell, ${warmupSeconds} s warm-up per ` +
      `target and mode, then ${cellWarmupSeconds} s at the cell's concurrency before each target's cell` +
      (cellRounds > 1
        ? `; ${cellRounds} rounds per cell, the targets in turn each round, each figure the rounds' median ` +
          `(peak RSS: the highest)`
        : ''),
    `- \`uptime\` before: ${before}`,
    `- \`uptime\` after: ${after}`,
    ...(process.env.BENCH_SQL_DSN
      ? [
          `- Gatehouse on ${new URL(process.env.BENCH_SQL_DSN).protocol.replace(':', '')} (BENCH_SQL_DSN), a new database per gateway`,
        ]
      : []),
    ...(process.env.BENCH_SQLITE_WRITE_THREAD
      ? [`- Gatehouse with SQLITE_WRITE_THREAD=${process.env.BENCH_SQLITE_WRITE_THREAD}`]
      : []),
  ].join('\n');
}

async function measureAll(): Promise<void> {
  const before = uptime();
  const processes = await startBenchProcesses();
  try {
    // Before any request but the provisioning: what each proxy holds at rest.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idleRss: IdleRss = {};
    for (const target of processes.targets) {
      if (target.proxy) idleRss[target.name] = readRssMb(target.proxy.pid);
    }
    for (const target of processes.targets) await checkAnswers(target);
    console.log(`every target answers; warming up ${warmupSeconds} s per target and mode`);
    for (const target of processes.targets) {
      for (const mode of MODES) {
        await measureCell(target, { mode, connections: 32, seconds: warmupSeconds, ttfbSeconds: 0.5 });
      }
    }
    const results: CellResult[] = [];
    for (const mode of MODES) {
      for (const connections of concurrencies) {
        // The targets back to back per cell (and in turn, round after round), so load from others on the
        // machine hits them alike.
        const rounds = new Map<Target, CellResult[]>(processes.targets.map((target) => [target, []]));
        for (let round = 1; round <= cellRounds; round += 1) {
          for (const target of processes.targets) {
            // V8 keeps optimising for seconds after the load changes (a new concurrency takes other paths:
            // a settlement batch of one at c=1, of many at c=256): measured is the steady state.
            if (cellWarmupSeconds > 0) {
              await measureCell(target, { mode, connections, seconds: cellWarmupSeconds, ttfbSeconds: 0 });
            }
            const result = await measureCell(target, { mode, connections, seconds, ttfbSeconds });
            rounds.get(target)!.push(result);
            console.log(
              `${mode} c=${connections} ${target.name}${cellRounds > 1 ? ` (round ${round})` : ''}: ` +
                `${result.rps.toFixed(0)} rps, ` +
                `p50 ${result.latency.p50.toFixed(3)} ms, p99 ${result.latency.p99.toFixed(3)} ms, ` +
                `CPU ${result.cpuMicrosPerRequest?.toFixed(0) ?? '—'} µs/req` +
                (result.loopDelay ? `, loop p99 ${result.loopDelay.p99.toFixed(2)} ms` : '') +
                (result.ttfb ? `, TTFB p99 ${result.ttfb.p99.toFixed(2)} ms` : '') +
                (result.failed + result.ttfbFailed > 0
                  ? `, ${result.failed + result.ttfbFailed} failed`
                  : ''),
            );
          }
        }
        for (const target of processes.targets) results.push(medianCell(rounds.get(target)!));
      }
    }
    const protocols = await measureProtocols(processes.gateway, protocolPlan);
    const billing = await checkBilling(processes.gateway);
    const after = uptime();
    const billingNote =
      `- Gatehouse billing after the run: ${billing.billedRequests} requests billed, used quota ` +
      `${billing.usedQuota}, consumption logs sum to ${billing.loggedQuota}` +
      `${billing.usedQuota === billing.loggedQuota ? ' (equal)' : ' (**differ**)'}, ` +
      `${billing.serverErrors} error lines in the server log; SQLite file ${billing.databaseMb} MB, its WAL ` +
      `${billing.walMb} MB`;
    const report =
      `${machineNote(before, after)}\n${billingNote}\n\n${formatReport(results, idleRss)}\n\n` +
      `#### Protocols (Gatehouse only)\n\n${formatProtocolReport(protocols, protocolPlan)}`;
    console.log(`\n${report}\n`);
    if (args['write-readme']) {
      await writeReadmeSection('results', report);
      const summary = `${machineNote(before, after)}\n\n${formatSideBySide(results, idleRss)}`;
      await writeReadmeSection('summary', summary, 'root');
    }
  } finally {
    await processes.stop();
  }
}

/** `--protocols`: the protocol table alone, on a gateway and a mock of its own (no floor, no direct). */
async function measureProtocolsOnly(): Promise<void> {
  const before = uptime();
  const mock = await startMock();
  const gateway = await startGateway({ upstreamUrl: mock.url, cpu: PROXY_CPU });
  try {
    const cells = await measureProtocols(gateway, protocolPlan);
    const billing = await checkBilling(gateway);
    console.log(
      `\n${machineNote(before, uptime())}\n- billing after the run: used quota ${billing.usedQuota}, consumption ` +
        `logs sum to ${billing.loggedQuota}, ${billing.serverErrors} error lines in the server log\n\n` +
        `${formatProtocolReport(cells, protocolPlan)}\n`,
    );
  } finally {
    await gateway.stop();
    await mock.child.stop();
  }
}

pinSelf();
await buildBenchChildren();
try {
  if (args.profile) {
    await runProfile({
      seconds,
      warmupSeconds,
      writeReadme: args['write-readme'],
      modes: args.mode ? [args.mode as Mode] : MODES,
      concurrencies: args.concurrency ? concurrencies : [PROFILE_CONNECTIONS],
      protocolPath: readProtocolPath(args.path),
    });
  } else if (args.memory) {
    const variants = args.compare?.split(',') ?? [
      serverRoot(),
      `${serverRoot()}|ApproximateTokenEnabled=true`,
    ];
    const table = await runMemory({ variants, seconds });
    console.log(`\n${uptime()}\n\n${table}\n`);
  } else if (args.syscalls) {
    const table = await runSyscalls({
      modes: args.mode ? [args.mode as Mode] : MODES,
      concurrencies: args.concurrency ? concurrencies : [1, 32],
      seconds,
      warmupSeconds: cellWarmupSeconds,
    });
    const report = `${machineLine()}; \`uptime\` after: ${uptime()}\n\n${table}`;
    if (args['write-readme']) await writeReadmeSection('syscalls', report);
  } else if (args.soak) {
    const report = await runSoak({
      rounds: Number(args['soak-rounds']),
      seconds: Number(args['soak-seconds']),
    });
    console.log(`\n${machineLine()}; \`uptime\` after: ${uptime()}\n\n${report}\n`);
    if (args['write-readme']) await writeReadmeSection('soak', `${machineLine()}\n\n${report}`);
  } else if (args.protocols) await measureProtocolsOnly();
  else if (args.compare) {
    const table = await runComparison({
      variants: args.compare.split(','),
      mode: args.mode === 'stream' ? 'stream' : 'json',
      rate: Number(args.rate),
      connections: args['compare-connections'] ? Number(args['compare-connections']) : null,
      rounds: Number(args.rounds),
      seconds,
    });
    console.log(`\n${uptime()}\n\n${table}\n`);
  } else await measureAll();
} finally {
  await stopAllChildren();
}
