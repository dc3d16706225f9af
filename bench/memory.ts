import { buildRequestTarget, type Mode } from './bench-request';
import { startMock } from './bench-processes';
import { buildComparedGateways } from './build-children';
import { parseVariant, startVariant } from './compare';
import { runLoad } from './load';
import { readCpuMicros, readPeakRssMb, readRssMb, resetPeakRss } from './proc-stats';

export interface MemoryOptions {
  /** server trees as for --compare (parseVariant) */
  variants: string[];
  seconds: number;
}

const CONNECTIONS = 256;
const RUNS: Mode[] = ['json', 'stream', 'stream', 'stream'];

/**
 * Peak RSS of one gateway over consecutive c=256 runs (JSON, then streams), each variant on a fresh gateway
 * alone on the proxy core. Each run ends with autocannon dropping its open connections, i.e. client aborts:
 * streams cut mid-answer are billed on a local count, which starts the tokenizer thread in the default
 * setup, so the runs show the gateway before and after the thread holds its tables.
 */
export async function runMemory(options: MemoryOptions): Promise<string> {
  const variants = options.variants.map(parseVariant);
  const entries = await buildComparedGateways(variants.map((variant) => variant.root));
  const mock = await startMock();
  const rows: string[][] = [];
  try {
    for (const [index, variant] of variants.entries()) {
      const gateway = await startVariant(variant, entries[index], mock.url);
      try {
        const pid = gateway.child.pid;
        const cells = [`\`${options.variants[index]}\``, readRssMb(pid).toFixed(0)];
        for (const mode of RUNS) {
          const target = buildRequestTarget(gateway.url, gateway.apiKey, mode);
          resetPeakRss(pid);
          const cpuBefore = readCpuMicros(pid);
          const load = await runLoad(target, CONNECTIONS, options.seconds);
          const cpu = (readCpuMicros(pid) - cpuBefore) / load.completed;
          cells.push(`${readPeakRssMb(pid).toFixed(0)} (${cpu.toFixed(0)} µs)`);
        }
        rows.push(cells);
      } finally {
        await gateway.stop();
      }
    }
  } finally {
    await mock.child.stop();
  }
  const header = ['variant', 'rest MB', ...RUNS.map((mode, run) => `${run + 1}. ${mode} c=256 peak MB`)];
  return [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}
