import type { Mode } from './bench-request';
import type { Gateway } from './gateway-process';
import { runFixedRateCounted } from './load';
import { readCpuMicros } from './proc-stats';
import {
  PROTOCOL_PATHS,
  buildProtocolTarget,
  checkProtocolAnswer,
  type ProtocolPath,
} from './protocol-requests';

export interface ProtocolPlan {
  /** requests per second sent on each path while it is measured */
  rate: number;
  seconds: number;
  rounds: number;
  warmupSeconds: number;
}

export interface ProtocolCell {
  path: ProtocolPath;
  mode: Mode;
  completed: number;
  failed: number;
  cpuMicrosPerRequest: number;
  /** CPU per request of each round, to see the spread */
  perRound: number[];
}

const MODES: Mode[] = ['json', 'stream'];

/**
 * The gateway's CPU per request on each protocol path (protocol-requests.ts) at the same fixed rate: the paths
 * take turns in every round (in a rotated order, so a slow drift of the machine's load and the settlements a
 * turn leaves to the next hit them alike; with rounds a multiple of three each path goes first once per three)
 * and their CPU time, read from /proc before and after each turn, is summed over the rounds.
 */
export async function measureProtocols(gateway: Gateway, plan: ProtocolPlan): Promise<ProtocolCell[]> {
  const pid = gateway.child.pid;
  for (const mode of MODES) {
    for (const path of PROTOCOL_PATHS) await checkProtocolAnswer(gateway.url, gateway.apiKey, path, mode);
  }
  const cells: ProtocolCell[] = [];
  for (const mode of MODES) {
    const targets = PROTOCOL_PATHS.map((path) =>
      buildProtocolTarget(gateway.url, gateway.apiKey, path, mode),
    );
    for (const target of targets) await runFixedRateCounted(target, plan.rate, plan.warmupSeconds);
    // The warm-up's settlements are written once a second: not in the first measured turn.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const totals = PROTOCOL_PATHS.map(() => ({ cpu: 0, completed: 0, failed: 0, perRound: [] as number[] }));
    for (let round = 0; round < plan.rounds; round += 1) {
      for (let turn = 0; turn < PROTOCOL_PATHS.length; turn += 1) {
        const index = (turn + round) % PROTOCOL_PATHS.length;
        const before = readCpuMicros(pid);
        const done = await runFixedRateCounted(targets[index], plan.rate, plan.seconds);
        const cpu = readCpuMicros(pid) - before;
        const total = totals[index];
        total.cpu += cpu;
        total.completed += done.completed;
        total.failed += done.failed;
        total.perRound.push(Math.round(cpu / Math.max(1, done.completed)));
      }
    }
    PROTOCOL_PATHS.forEach((path, index) => {
      const total = totals[index];
      const cell: ProtocolCell = {
        path,
        mode,
        completed: total.completed,
        failed: total.failed,
        cpuMicrosPerRequest: total.completed === 0 ? Number.NaN : total.cpu / total.completed,
        perRound: total.perRound,
      };
      cells.push(cell);
      console.log(
        `protocols ${mode} ${path}: CPU ${cell.cpuMicrosPerRequest.toFixed(0)} µs/req ` +
          `(rounds ${cell.perRound.join(', ')})${cell.failed > 0 ? `, ${cell.failed} failed` : ''}`,
      );
    });
  }
  return cells;
}

/** The issues' targets for the protocol paths, relative to chat completions in the same run. */
export const PROTOCOL_TARGETS = { messagesToChat: 1.1, translatedStreamToChat: 1.2 } as const;

const PATH_NAMES: Record<ProtocolPath, string> = {
  chat: 'OpenAI chat → OpenAI channel (pass-through)',
  messages: 'Anthropic Messages → Anthropic channel (pass-through)',
  'chat-on-anthropic': 'OpenAI chat → Anthropic channel (translated)',
};

export function formatProtocolReport(cells: ProtocolCell[], plan: ProtocolPlan): string {
  const find = (path: ProtocolPath, mode: Mode) => cells.find((c) => c.path === path && c.mode === mode);
  const rows = cells.map((cell) => {
    const chat = find('chat', cell.mode)?.cpuMicrosPerRequest ?? Number.NaN;
    return `| ${cell.mode} | ${PATH_NAMES[cell.path]} | ${cell.completed} | ${cell.cpuMicrosPerRequest.toFixed(0)} | ${(cell.cpuMicrosPerRequest / chat).toFixed(2)}× | ${cell.perRound.join(', ')} | ${cell.failed} |`;
  });
  const ratio = (path: ProtocolPath, mode: Mode) =>
    (find(path, mode)?.cpuMicrosPerRequest ?? Number.NaN) /
    (find('chat', mode)?.cpuMicrosPerRequest ?? Number.NaN);
  const verdict = (value: number, target: number) =>
    Number.isFinite(value) ? (value <= target ? 'met' : '**missed**') : '—';
  const messagesJson = ratio('messages', 'json');
  const messagesStream = ratio('messages', 'stream');
  const translated = ratio('chat-on-anthropic', 'stream');
  const worstMessages = Math.max(messagesJson, messagesStream);
  return [
    `${plan.rate} req/s on each path over 8 connections, ${plan.rounds} rounds of ${plan.seconds} s per path and mode (turns rotated per round)`,
    '',
    '| mode | path | requests | CPU µs/req | × chat | per round | failed |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    '| target | measured | verdict |',
    '| --- | --- | --- |',
    `| \`/v1/messages\` pass-through CPU ≤ ${PROTOCOL_TARGETS.messagesToChat} × chat/completions | json ${messagesJson.toFixed(2)}×, stream ${messagesStream.toFixed(2)}× | ${verdict(worstMessages, PROTOCOL_TARGETS.messagesToChat)} |`,
    `| OpenAI streams on an Anthropic channel (translated) CPU ≤ ${PROTOCOL_TARGETS.translatedStreamToChat} × OpenAI pass-through | ${translated.toFixed(2)}× | ${verdict(translated, PROTOCOL_TARGETS.translatedStreamToChat)} |`,
  ].join('\n');
}
