import type { Mode } from './bench-request';
import type { CellResult, TargetName } from './measure';

/** The hot-path issue's targets for Gatehouse on a 2-core machine with the proxies pinned to one core. */
export const TARGETS = {
  cpuRatioToFloor: 1.5,
  addedP99AtOneMs: 1,
  ttfbP99RatioAt256: 1.5,
  peakRssAt256StreamsMb: 128,
  idleRssMb: 80,
  cpuRatioBelowPortkey: 4,
} as const;

/** Resident memory of each proxy after start (and Gatehouse's provisioning), before any load. */
export type IdleRss = Partial<Record<TargetName, number>>;

const number = (value: number | null | undefined, digits: number) =>
  value === null || value === undefined || Number.isNaN(value) ? '—' : value.toFixed(digits);
const ratio = (value: number | null, floor: number | null) =>
  value === null || floor === null || !(floor > 0) ? '—' : `${(value / floor).toFixed(2)}×`;
const added = (value: number, direct: number, targetName: TargetName) =>
  targetName === 'direct' ? '—' : (value - direct).toFixed(3);

function find(results: CellResult[], target: TargetName, mode: Mode, connections: number) {
  return results.find((r) => r.target === target && r.mode === mode && r.connections === connections) ?? null;
}

const table = (rows: string[][]) =>
  [rows[0], rows[0].map(() => '---'), ...rows.slice(1)].map((cells) => `| ${cells.join(' | ')} |`).join('\n');

function modeTable(results: CellResult[], mode: Mode): string {
  const isStream = mode === 'stream';
  const header = [
    'c',
    'target',
    'RPS',
    'RPS ×floor',
    'p50 ms',
    'p50 added',
    'p99 ms',
    'p99 added',
    'CPU µs/req',
    'CPU ×floor',
    'peak RSS MB',
    'loop delay p99 ms',
    ...(isStream ? ['TTFB p50 ms', 'TTFB added', 'TTFB p99 ms', 'TTFB p99 ×floor'] : []),
    'failed',
  ];
  const rows = results
    .filter((r) => r.mode === mode)
    .map((r) => {
      const floor = find(results, 'floor', mode, r.connections);
      const direct = find(results, 'direct', mode, r.connections);
      const ttfbAdded = r.ttfb && direct?.ttfb ? added(r.ttfb.p50, direct.ttfb.p50, r.target) : '—';
      return [
        String(r.connections),
        r.target,
        number(r.rps, 0),
        ratio(r.rps, floor?.rps ?? null),
        number(r.latency.p50, 3),
        direct ? added(r.latency.p50, direct.latency.p50, r.target) : '—',
        number(r.latency.p99, 3),
        direct ? added(r.latency.p99, direct.latency.p99, r.target) : '—',
        number(r.cpuMicrosPerRequest, 0),
        ratio(r.cpuMicrosPerRequest, floor?.cpuMicrosPerRequest ?? null),
        number(r.peakRssMb, 0),
        number(r.loopDelay?.p99, 2),
        ...(isStream
          ? [
              number(r.ttfb?.p50, 3),
              ttfbAdded,
              number(r.ttfb?.p99, 3),
              r.target === 'direct' ? '—' : ratio(r.ttfb?.p99 ?? null, floor?.ttfb?.p99 ?? null),
            ]
          : []),
        String(r.failed + r.ttfbFailed),
      ];
    });
  return table([header, ...rows]);
}

interface Verdict {
  target: string;
  measured: string;
  isMet: boolean;
}

/**
 * Gatehouse's CPU per request over another target's, per cell: the ratio of the two medians (the verdict),
 * and with several rounds each round's own ratio beside it (the targets ran back to back in a round, so one
 * round's ratio shares the machine's state; how far they spread says how much one run can decide).
 */
function cellRatios(results: CellResult[], against: TargetName) {
  return results
    .filter((r) => r.target === 'gatehouse')
    .map((r) => {
      const other = find(results, against, r.mode, r.connections);
      const value = (r.cpuMicrosPerRequest ?? Number.NaN) / (other?.cpuMicrosPerRequest ?? Number.NaN);
      const ours = r.cpuRounds ?? [];
      const theirs = other?.cpuRounds ?? [];
      const rounds =
        ours.length > 1 && ours.length === theirs.length
          ? ours.map((cpu, index) => (cpu ?? Number.NaN) / (theirs[index] ?? Number.NaN))
          : [];
      return { r, value, rounds: rounds.every(Number.isFinite) ? rounds : [] };
    })
    .filter(({ value }) => Number.isFinite(value));
}

/** `json c=32: 1.56×`, or with rounds `json c=32: 1.56× (rounds 1.35, 1.85, 1.22)` */
function describeRatio({ r, value, rounds }: ReturnType<typeof cellRatios>[number]): string {
  const each = rounds.length > 0 ? ` (rounds ${rounds.map((ratio) => ratio.toFixed(2)).join(', ')})` : '';
  return `${r.mode} c=${r.connections}: ${value.toFixed(2)}×${each}`;
}

function verdicts(results: CellResult[], idleRss: IdleRss): Verdict[] {
  const list: Verdict[] = [];
  const toFloor = cellRatios(results, 'floor');
  if (toFloor.length > 0) {
    list.push({
      target: `CPU per request ≤ ${TARGETS.cpuRatioToFloor} × floor, every cell`,
      measured: toFloor.map(describeRatio).join(', '),
      isMet: Math.max(...toFloor.map(({ value }) => value)) <= TARGETS.cpuRatioToFloor,
    });
  }
  for (const mode of ['json', 'stream'] as const) {
    const gate = find(results, 'gatehouse', mode, 1);
    const direct = find(results, 'direct', mode, 1);
    if (!gate || !direct) continue;
    const value = gate.latency.p99 - direct.latency.p99;
    const floor = find(results, 'floor', mode, 1);
    list.push({
      target: `added p99 latency ≤ ${TARGETS.addedP99AtOneMs} ms at c=1 (${mode === 'json' ? 'JSON' : 'streams'})`,
      measured:
        `${value.toFixed(3)} ms` +
        (floor ? ` (the floor adds ${(floor.latency.p99 - direct.latency.p99).toFixed(3)} ms)` : ''),
      isMet: value <= TARGETS.addedP99AtOneMs,
    });
  }
  const gateTtfb = find(results, 'gatehouse', 'stream', 256)?.ttfb;
  const floorTtfb = find(results, 'floor', 'stream', 256)?.ttfb;
  if (gateTtfb && floorTtfb) {
    const value = gateTtfb.p99 / floorTtfb.p99;
    list.push({
      target: `stream TTFB p99 at c=256 ≤ ${TARGETS.ttfbP99RatioAt256} × floor`,
      measured: `${gateTtfb.p99.toFixed(1)} ms against ${floorTtfb.p99.toFixed(1)} ms: ${value.toFixed(2)}×`,
      isMet: value <= TARGETS.ttfbP99RatioAt256,
    });
  }
  const gate256 = find(results, 'gatehouse', 'stream', 256);
  if (gate256?.peakRssMb != null) {
    list.push({
      target: `peak RSS ≤ ${TARGETS.peakRssAt256StreamsMb} MB at 256 streams`,
      measured: `${gate256.peakRssMb.toFixed(0)} MB`,
      isMet: gate256.peakRssMb <= TARGETS.peakRssAt256StreamsMb,
    });
  }
  if (idleRss.gatehouse !== undefined) {
    list.push({
      target: `RSS ≤ ${TARGETS.idleRssMb} MB idle after start`,
      measured: `${idleRss.gatehouse.toFixed(0)} MB`,
      isMet: idleRss.gatehouse <= TARGETS.idleRssMb,
    });
  }
  const toPortkey = cellRatios(results, 'portkey');
  if (toPortkey.length > 0) {
    list.push({
      target: `≥ ${TARGETS.cpuRatioBelowPortkey} × less CPU per request than Portkey, every cell`,
      measured: toPortkey
        .map(({ r, value }) => `${r.mode} c=${r.connections}: ${(1 / value).toFixed(1)}×`)
        .join(', '),
      isMet: Math.min(...toPortkey.map(({ value }) => 1 / value)) >= TARGETS.cpuRatioBelowPortkey,
    });
  }
  return list;
}

export function formatVerdicts(results: CellResult[], idleRss: IdleRss): string {
  return table([
    ['target', 'measured', 'verdict'],
    ...verdicts(results, idleRss).map((v) => [v.target, v.measured, v.isMet ? 'met' : '**missed**']),
  ]);
}

const PROXIES: TargetName[] = ['floor', 'gatehouse', 'portkey'];

/** floor / Gatehouse / Portkey side by side per cell: the short table of the repository's README. */
export function formatSideBySide(results: CellResult[], idleRss: IdleRss): string {
  const cells = [...new Set(results.map((r) => `${r.mode} ${r.connections}`))];
  const each = (mode: Mode, connections: number, read: (r: CellResult) => string) =>
    PROXIES.map((name) => {
      const r = find(results, name, mode, connections);
      return r ? read(r) : '—';
    }).join(' / ');
  const rows = cells.map((cell) => {
    const [mode, connections] = [cell.split(' ')[0] as Mode, Number(cell.split(' ')[1])];
    return [
      mode === 'json' ? 'JSON' : 'stream',
      String(connections),
      each(mode, connections, (r) => number(r.cpuMicrosPerRequest, 0)),
      each(mode, connections, (r) => number(r.latency.p99, 2)),
      mode === 'stream' ? each(mode, connections, (r) => number(r.ttfb?.p99, 2)) : '—',
      each(mode, connections, (r) => number(r.loopDelay?.p99, 1)),
      each(mode, connections, (r) => number(r.peakRssMb, 0)),
    ];
  });
  const idle = PROXIES.map((name) => number(idleRss[name], 0)).join(' / ');
  return [
    table([
      ['answer', 'c', 'CPU µs/req', 'p99 ms', 'stream TTFB p99 ms', 'event-loop delay p99 ms', 'peak RSS MB'],
      ...rows,
    ]),
    '',
    `Each cell: floor / Gatehouse / Portkey. RSS idle after start: ${idle} MB.`,
  ].join('\n');
}

export function formatReport(results: CellResult[], idleRss: IdleRss): string {
  return [
    '#### Non-streaming (JSON answer)',
    '',
    modeTable(results, 'json'),
    '',
    '#### Streaming (SSE)',
    '',
    modeTable(results, 'stream'),
    '',
    '#### Side by side',
    '',
    formatSideBySide(results, idleRss),
    '',
    '#### Targets',
    '',
    formatVerdicts(results, idleRss),
  ].join('\n');
}
