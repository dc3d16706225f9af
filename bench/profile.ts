import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Mode } from './bench-request';
import { PROXY_CPU, startMock } from './bench-processes';
import { checkAnswers } from './check-answers';
import { startGateway } from './gateway-process';
import { runLoad } from './load';
import { readCpuMicros } from './proc-stats';
import { formatProfileSummary, summariseProfile } from './profile-summary';
import { buildProtocolTarget, checkProtocolAnswer, type ProtocolPath } from './protocol-requests';
import { writeReadmeSection } from './readme-section';

/** The concurrency profiled unless `--concurrency` names others. */
export const PROFILE_CONNECTIONS = 32;
const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Where the gateway's CPU goes: for each mode, a fresh gateway under `node --cpu-prof`, warmed up, then
 * loaded at c=32; only the samples of the loaded window are summarised (V8's profile clock and
 * process.hrtime are both CLOCK_MONOTONIC, so the window can be cut from here). V8 samples wall-clock time,
 * so on a busy machine time the process spent waiting for the core lands on whatever ran before; the µs per
 * request columns therefore spread the CPU time measured from /proc over the shares of the samples.
 */
async function profileMode(
  mockUrl: string,
  mode: Mode,
  seconds: number,
  warmupSeconds: number,
  connections: number,
  protocolPath: ProtocolPath,
): Promise<string> {
  const gateway = await startGateway({ upstreamUrl: mockUrl, cpu: PROXY_CPU, isProfiled: true });
  try {
    await checkAnswers({ name: 'gatehouse', baseUrl: gateway.url, apiKey: gateway.apiKey });
    if (protocolPath !== 'chat') await checkProtocolAnswer(gateway.url, gateway.apiKey, protocolPath, mode);
    const request = buildProtocolTarget(gateway.url, gateway.apiKey, protocolPath, mode);
    await runLoad(request, connections, warmupSeconds);
    const cpuBefore = readCpuMicros(gateway.child.pid);
    const fromMicros = monotonicMicros();
    const load = await runLoad(request, connections, seconds);
    const window = {
      fromMicros,
      toMicros: monotonicMicros(),
      requests: load.completed,
      cpuMicros: readCpuMicros(gateway.child.pid) - cpuBefore,
    };
    // V8 writes the profile when the process exits.
    await gateway.child.stop();
    const file = readdirSync(gateway.dataDir).find((name) => name.endsWith('.cpuprofile'));
    if (!file) throw new Error(`no .cpuprofile in ${gateway.dataDir}: did the gateway exit cleanly?`);
    const summary = summariseProfile(path.join(gateway.dataDir, file), window);
    const title =
      `${mode === 'json' ? 'Non-streaming' : 'Streaming'}, c=${connections}, ${seconds} s` +
      (protocolPath === 'chat' ? '' : `, path ${protocolPath}`);
    return formatProfileSummary(title, summary);
  } finally {
    // Also removes the temporary database, log and profile.
    await gateway.stop();
  }
}

export async function runProfile(options: {
  seconds: number;
  warmupSeconds: number;
  writeReadme: boolean;
  modes: readonly Mode[];
  concurrencies: readonly number[];
  /** which protocol path is loaded (chat completions to the OpenAI channel unless told) */
  protocolPath: ProtocolPath;
}) {
  const mock = await startMock();
  try {
    const sections: string[] = [];
    for (const mode of options.modes) {
      for (const connections of options.concurrencies) {
        sections.push(
          await profileMode(
            mock.url,
            mode,
            options.seconds,
            options.warmupSeconds,
            connections,
            options.protocolPath,
          ),
        );
      }
    }
    const report = sections.join('\n\n');
    console.log(`\n${report}\n`);
    if (options.writeReadme) await writeReadmeSection('profile', report);
  } finally {
    await mock.child.stop();
  }
}
