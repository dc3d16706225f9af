import type { Mode } from './bench-request';
import type { CellResult, TargetName } from './measure';

/** The targets for Gatehouse on a 2-core machine with the gateway pinned to one core. */
export const TARGETS = {
  cpuRatioToFloor: 1.5,
  addedP50AtOneMs: 0.5,
  ttfbOverheadMs: 1,
  peakRssAt256StreamsMb: 200,
} as const;

const number = (value: number | null, digits: number) =>
  value === null || Number.isNaN(value) ? '—' : value.toFixed(digits);
const ratio = (value: number | null, floor: number | null) =>
  value === null || floor === null || !(floor > 0) ? '—' : `${(value / floor).toFixed(2)}×`;
const added = (value: number, direct: number, targetName: TargetName) =>
  targetName === 'direct' ? '—' : (value - direct).toFixed(3);

function find(results: CellResult[], target: TargetName, mode: Mode, connections: number) {
  return results.find((r) => r.target === target && r.mode === mode && r.connections === connections) ?? null;
}

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
    'RSS ×floor',
    ...(isStream ? ['TTFB p50 ms', 'TTFB added', 'TTFB p99 ms'] : []),
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
        ratio(r.peakRssMb, floor?.peakRssMb ?? null),
        ...(isStream ? [number(r.ttfb?.p50 ?? null, 3), ttfbAdded, number(r.ttfb?.p99 ?? null, 3)] : []),
        String(r.failed + r.ttfbFailed),
      ];
    });
  return [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

interface Verdict {
  target: string;
  measured: string;
  isMet: boolean | null;
}

function verdicts(results: CellResult[]): Verdict[] {
  const list: Verdict[] = [];
  const cpuRatios = results
    .filter((r) => r.target === 'gatehouse')
    .map((r) => {
      const floor = find(results, 'floor', r.mode, r.connections)?.cpuMicrosPerRequest ?? Number.NaN;
      return { r, value: (r.cpuMicrosPerRequest ?? Number.NaN) / floor };
    })
    .filter(({ value }) => Number.isFinite(value));
  if (cpuRatios.length > 0) {
    const worst = Math.max(...cpuRatios.map(({ value }) => value));
    list.push({
      target: `CPU per request ≤ ${TARGETS.cpuRatioToFloor} × floor`,
      measured: cpuRatios
        .map(({ r, value }) => `${r.mode} c=${r.connections}: ${value.toFixed(2)}×`)
        .join(', '),
      isMet: worst <= TARGETS.cpuRatioToFloor,
    });
  }
  // On a busy machine the floor's own hop shows how much of "added" is scheduling rather than Gatehouse.
  const floorNote = (gate: number, floor: number | undefined, direct: number) =>
    floor === undefined
      ? ''
      : ` (floor adds ${(floor - direct).toFixed(3)} ms; Gatehouse − floor ${(gate - floor).toFixed(3)} ms)`;
  const gateOne = find(results, 'gatehouse', 'json', 1);
  const directOne = find(results, 'direct', 'json', 1);
  if (gateOne && directOne) {
    const value = gateOne.latency.p50 - directOne.latency.p50;
    const floor = find(results, 'floor', 'json', 1)?.latency.p50;
    list.push({
      target: `added p50 latency ≤ ${TARGETS.addedP50AtOneMs} ms at c=1 (JSON)`,
      measured: `${value.toFixed(3)} ms${floorNote(gateOne.latency.p50, floor, directOne.latency.p50)}`,
      isMet: value <= TARGETS.addedP50AtOneMs,
    });
  }
  const gateStream = find(results, 'gatehouse', 'stream', 1);
  const directStream = find(results, 'direct', 'stream', 1);
  if (gateStream?.ttfb && directStream?.ttfb) {
    const value = gateStream.ttfb.p50 - directStream.ttfb.p50;
    const floor = find(results, 'floor', 'stream', 1)?.ttfb?.p50;
    list.push({
      target: `streaming TTFB overhead ≤ ${TARGETS.ttfbOverheadMs} ms (p50, c=1)`,
      measured: `${value.toFixed(3)} ms${floorNote(gateStream.ttfb.p50, floor, directStream.ttfb.p50)}`,
      isMet: value <= TARGETS.ttfbOverheadMs,
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
  return list;
}

export function formatVerdicts(results: CellResult[]): string {
  const rows = verdicts(results).map(
    (v) => `| ${v.target} | ${v.measured} | ${v.isMet === null ? '—' : v.isMet ? 'met' : '**missed**'} |`,
  );
  return ['| target | measured | verdict |', '| --- | --- | --- |', ...rows].join('\n');
}

export function formatReport(results: CellResult[]): string {
  return [
    '#### Non-streaming (JSON answer)',
    '',
    modeTable(results, 'json'),
    '',
    '#### Streaming (SSE)',
    '',
    modeTable(results, 'stream'),
    '',
    '#### Targets',
    '',
    formatVerdicts(results),
  ].join('\n');
}
