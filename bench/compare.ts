import { buildRequestTarget, type Mode } from './bench-request';
import { PROXY_CPU, startMock } from './bench-processes';
import { buildComparedGateways } from './build-children';
import { startGateway, type Gateway } from './gateway-process';
import { runFixedRate, runFixedRateCounted } from './load';
import { readCpuMicros, readPeakRssMb } from './proc-stats';

/**
 * A server tree to measure: `/path`, optionally with one option set through the API (`|Key=value`) and node
 * flags for the gateway (`#--flag --flag=value`): `/path|Key=value#--flags`.
 */
export interface Variant {
  root: string;
  option: [string, string] | null;
  nodeFlags: string[];
}

export function parseVariant(spec: string): Variant {
  const [rest, flags = ''] = spec.split('#');
  const [root, option] = rest.split('|');
  const [key, value] = option?.split('=') ?? [];
  return {
    root,
    option: key && value !== undefined ? [key, value] : null,
    nodeFlags: flags.split(' ').filter(Boolean),
  };
}

/** Starts the gateway of a variant built into `entry` and sets its option. */
export async function startVariant(variant: Variant, entry: string, upstreamUrl: string): Promise<Gateway> {
  const gateway = await startGateway({ upstreamUrl, cpu: PROXY_CPU, entry, nodeFlags: variant.nodeFlags });
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
  rounds: number;
  seconds: number;
}

/**
 * A/B (or more) of server trees on a busy machine: the gateways run side by side on the proxy core and each
 * gets the same fixed request rate at the same time, so whatever else loads the machine hits them alike;
 * CPU per request is then comparable between them (not with other runs). Run it twice with the order
 * reversed, and once with the same tree twice to see the method's own spread.
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
        targets.map((target) => runFixedRateCounted(target, options.rate, options.seconds)),
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
