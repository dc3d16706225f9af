import { buildRequestTarget, type Mode, type RequestTarget } from './bench-request';
import { PROXY_CPU, startMock } from './bench-processes';
import { buildComparedGateways } from './build-children';
import { startGateway, type Gateway } from './gateway-process';
import { runFixedRate, runFixedRateCounted, runLoad } from './load';
import { readCpuMicros, readPeakRssMb } from './proc-stats';
import { summarise } from './stats';

/**
 * A server tree to measure: `/path`, optionally with one option set through the API (`|Key=value`) and node
 * flags or environment variables for the gateway (`#--flag --flag=value NAME=value`, e.g. glibc's
 * `MALLOC_ARENA_MAX=2`): `/path|Key=value#--flags NAME=value`.
 */
export interface Variant {
  root: string;
  option: [string, string] | null;
  nodeFlags: string[];
  env: Record<string, string>;
}

const ENV_SETTING = /^([A-Z_][A-Z0-9_]*)=(.*)$/;

export function parseVariant(spec: string): Variant {
  const [rest, flags = ''] = spec.split('#');
  const [root, option] = rest.split('|');
  const [key, value] = option?.split('=') ?? [];
  const words = flags.split(' ').filter(Boolean);
  const env: Record<string, string> = {};
  for (const word of words) {
    const setting = ENV_SETTING.exec(word);
    if (setting) env[setting[1]] = setting[2];
  }
  return {
    root,
    option: key && value !== undefined ? [key, value] : null,
    nodeFlags: words.filter((word) => !ENV_SETTING.test(word)),
    env,
  };
}

/** Starts the gateway of a variant built into `entry` and sets its option. */
export async function startVariant(variant: Variant, entry: string, upstreamUrl: string): Promise<Gateway> {
  const gateway = await startGateway({
    upstreamUrl,
    cpu: PROXY_CPU,
    entry,
    nodeFlags: variant.nodeFlags,
    env: variant.env,
  });
  if (variant.option) {
    const [key, value] = variant.option;
    await gateway.management.call('PUT', '/api/option/', { key, value });
  }
  return gateway;
}

export interface CompareOptions {
  /** server trees as parseVariant reads them */
  variants: string[];
  mode: Mode;
  /** requests per second sent to each gateway */
  rate: number;
  /** instead of a fixed rate, this many connections per gateway, each sending as fast as it is answered */
  connections: number | null;
  rounds: number;
  seconds: number;
}

async function runClosedLoop(
  target: RequestTarget,
  connections: number,
  seconds: number,
): Promise<{ completed: number; failed: number; p99Ms: number }> {
  const load = await runLoad(target, connections, seconds);
  return { completed: load.completed, failed: load.failed, p99Ms: summarise(load.latencies).p99 };
}

/**
 * A/B (or more) of server trees on a busy machine: the gateways run side by side on the proxy core and each
 * gets the same fixed request rate at the same time (or, with `connections`, the same number of connections
 * sending back to back: the gateways then share the core, as a batching change needs), so whatever else
 * loads the machine hits them alike; CPU per request is then comparable between them (not with other runs).
 * Run it twice with the order reversed, and once with the same tree twice to see the method's own spread.
 */
export async function runComparison(options: CompareOptions): Promise<string> {
  const variants = options.variants.map(parseVariant);
  const entries = await buildComparedGateways(variants.map((variant) => variant.root));
  const mock = await startMock();
  const gateways: Gateway[] = [];
  try {
    for (const [index, variant] of variants.entries()) {
      gateways.push(await startVariant(variant, entries[index], mock.url));
    }
    const targets = gateways.map((gateway) => buildRequestTarget(gateway.url, gateway.apiKey, options.mode));
    await Promise.all(targets.map((target) => runFixedRate(target, options.rate, 2)));
    const totals = gateways.map(() => ({ cpu: 0, requests: 0, rounds: [] as number[], p99: [] as number[] }));
    for (let round = 0; round < options.rounds; round += 1) {
      const before = gateways.map((gateway) => readCpuMicros(gateway.child.pid));
      const done = await Promise.all(
        targets.map((target) =>
          options.connections === null
            ? runFixedRateCounted(target, options.rate, options.seconds)
            : runClosedLoop(target, options.connections, options.seconds),
        ),
      );
      gateways.forEach((gateway, index) => {
        const cpu = readCpuMicros(gateway.child.pid) - before[index];
        totals[index].cpu += cpu;
        totals[index].requests += done[index].completed;
        totals[index].rounds.push(Math.round(cpu / done[index].completed));
        totals[index].p99.push(done[index].p99Ms);
      });
    }
    const base = totals[0].cpu / totals[0].requests;
    const rows = totals.map((total, index) => {
      const perRequest = total.cpu / total.requests;
      return [
        `\`${options.variants[index]}\``,
        String(total.requests),
        perRequest.toFixed(0),
        `${(perRequest / base).toFixed(2)}×`,
        total.rounds.join(', '),
        total.p99.map((ms) => ms.toFixed(1)).join(', '),
        readPeakRssMb(gateways[index].child.pid).toFixed(0),
      ];
    });
    const header = [
      'variant',
      'requests',
      'CPU µs/req',
      '× first',
      'per round',
      'p99 ms per round',
      'lifetime peak RSS MB',
    ];
    return [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
  } finally {
    await Promise.all(gateways.map((gateway) => gateway.stop()));
    await mock.child.stop();
  }
}
