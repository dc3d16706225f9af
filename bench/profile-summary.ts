import { existsSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The parts of V8's .cpuprofile JSON (written by node --cpu-prof) the summary reads. */
interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
    children?: number[];
  }>;
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

interface Frame {
  name: string;
  location: string;
  area: string;
}

export interface ProfileWindow {
  /** CLOCK_MONOTONIC microseconds, the clock of both V8's profile and process.hrtime */
  fromMicros: number;
  toMicros: number;
  requests: number;
  /** CPU time of the process over the window, from /proc */
  cpuMicros: number;
}

export interface ProfileSummary {
  busyMicros: number;
  idleMicros: number;
  requests: number;
  cpuMicros: number;
  selfByFunction: Array<{ frame: Frame; micros: number }>;
  selfByArea: Array<{ area: string; micros: number }>;
  /** time inside Gatehouse's own functions including what they call */
  inclusiveGatehouse: Array<{ frame: Frame; micros: number }>;
}

/** Maps positions in a bundle (the gateway's) back to its TypeScript sources with the bundle's source map. */
function createSourceResolver() {
  const maps = new Map<string, { map: SourceMap; directory: string } | null>();
  return (url: string, line: number, column: number): { file: string; line: number } => {
    const file = url.startsWith('file://') ? fileURLToPath(url) : url;
    if (!maps.has(file)) {
      const mapFile = `${file}.map`;
      maps.set(
        file,
        existsSync(mapFile)
          ? {
              map: new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8')) as SourceMapPayload),
              directory: path.dirname(file),
            }
          : null,
      );
    }
    const source = maps.get(file);
    const entry = source?.map.findEntry(line, column);
    if (!source || !entry || !('originalSource' in entry)) return { file, line };
    const original = entry.originalSource.startsWith('file://')
      ? fileURLToPath(entry.originalSource)
      : path.resolve(source.directory, entry.originalSource);
    return { file: original, line: entry.originalLine };
  };
}

function describeFrame(functionName: string, file: string, lineNumber: number): Frame {
  const name = functionName || '(anonymous)';
  if (file === '') return { name, location: '', area: name.startsWith('(') ? name : 'V8 builtins' };
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(file);
  const line = `:${lineNumber + 1}`;
  if (packageMatch)
    return { name, location: `${packageMatch[1]}/${packageMatch[2]}${line}`, area: packageMatch[1] };
  const serverMatch = /apps\/server\/src\/(([^/]+)\/)?(.*)$/.exec(file);
  if (serverMatch) {
    return {
      name,
      location: `server/${serverMatch[1] ?? ''}${serverMatch[3]}${line}`,
      area: `gatehouse ${serverMatch[2] ?? 'app'}`,
    };
  }
  if (file.includes('packages/shared/'))
    return { name, location: file.slice(file.indexOf('packages/')) + line, area: 'gatehouse shared' };
  if (file.startsWith('node:')) return { name, location: file + line, area: 'node core' };
  return { name, location: file + line, area: 'other' };
}

const keyOf = (frame: Frame) => `${frame.name} ${frame.location}`;

function topEntries<T>(map: Map<string, { value: T; micros: number }>, count: number) {
  return [...map.values()].sort((a, b) => b.micros - a.micros).slice(0, count);
}

/** Self and inclusive time per function and per area (package or server folder) over a time window. */
export function summariseProfile(file: string, window: ProfileWindow): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const frames = new Map<number, Frame>();
  const parents = new Map<number, number>();
  const resolveSource = createSourceResolver();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    const source = url === '' ? { file: '', line: 0 } : resolveSource(url, lineNumber, columnNumber);
    frames.set(node.id, describeFrame(functionName, source.file, source.line));
    for (const child of node.children ?? []) parents.set(child, node.id);
  }
  const self = new Map<string, { value: Frame; micros: number }>();
  const areas = new Map<string, { value: string; micros: number }>();
  const inclusive = new Map<string, { value: Frame; micros: number }>();
  const add = <T>(map: Map<string, { value: T; micros: number }>, key: string, value: T, micros: number) => {
    const entry = map.get(key);
    if (entry) entry.micros += micros;
    else map.set(key, { value, micros });
  };
  let time = profile.startTime;
  let busyMicros = 0;
  let idleMicros = 0;
  profile.samples.forEach((nodeId, index) => {
    time += profile.timeDeltas[index] ?? 0;
    // A sample's delta is the time since the previous one: that much time is charged to this sample.
    const micros = profile.timeDeltas[index + 1] ?? 0;
    if (time < window.fromMicros || time > window.toMicros) return;
    const frame = frames.get(nodeId);
    if (!frame) return;
    if (frame.name === '(idle)') {
      idleMicros += micros;
      return;
    }
    busyMicros += micros;
    add(self, keyOf(frame), frame, micros);
    add(areas, frame.area, frame.area, micros);
    const seen = new Set<string>();
    for (let id: number | undefined = nodeId; id !== undefined; id = parents.get(id)) {
      const ancestor = frames.get(id);
      if (!ancestor || !ancestor.area.startsWith('gatehouse') || seen.has(keyOf(ancestor))) continue;
      seen.add(keyOf(ancestor));
      add(inclusive, keyOf(ancestor), ancestor, micros);
    }
  });
  return {
    busyMicros,
    idleMicros,
    requests: window.requests,
    cpuMicros: window.cpuMicros,
    selfByFunction: topEntries(self, 25).map(({ value, micros }) => ({ frame: value, micros })),
    selfByArea: topEntries(areas, 15).map(({ value, micros }) => ({ area: value, micros })),
    inclusiveGatehouse: topEntries(inclusive, 15).map(({ value, micros }) => ({ frame: value, micros })),
  };
}

export function formatProfileSummary(title: string, summary: ProfileSummary): string {
  const cpuPerRequest = summary.cpuMicros / summary.requests;
  // The share of the samples times the CPU time measured per request (see profile.ts for why).
  const perRequest = (micros: number) =>
    summary.requests > 0 ? ((micros / summary.busyMicros) * cpuPerRequest).toFixed(1) : '—';
  const share = (micros: number) => `${((100 * micros) / summary.busyMicros).toFixed(1)}%`;
  const table = (header: string[], rows: string[][]) =>
    [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
  return [
    `#### ${title}`,
    '',
    `${summary.requests} requests in the window, ${cpuPerRequest.toFixed(0)} µs CPU per request (/proc); ` +
      `samples: ${(summary.busyMicros / 1000).toFixed(0)} ms busy, ${(summary.idleMicros / 1000).toFixed(0)} ms idle.`,
    '',
    'Self time by area (package, or Gatehouse folder):',
    '',
    table(
      ['area', 'self', 'µs/req'],
      summary.selfByArea.map(({ area, micros }) => [area, share(micros), perRequest(micros)]),
    ),
    '',
    'Top functions by self time:',
    '',
    table(
      ['function', 'where', 'self', 'µs/req'],
      summary.selfByFunction.map(({ frame, micros }) => [
        `\`${frame.name}\``,
        frame.location,
        share(micros),
        perRequest(micros),
      ]),
    ),
    '',
    "Gatehouse's own functions, inclusive of what they call:",
    '',
    table(
      ['function', 'where', 'inclusive', 'µs/req'],
      summary.inclusiveGatehouse.map(({ frame, micros }) => [
        `\`${frame.name}\``,
        frame.location,
        share(micros),
        perRequest(micros),
      ]),
    ),
  ].join('\n');
}
