import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';

/** The conformance matrix's shape and its place in docs/providers.md (run by provider-conformance.test.ts). */
export const OPERATIONS = ['chat', 'stream', 'tools', 'vision', 'embeddings', 'cache usage'] as const;
export type Operation = (typeof OPERATIONS)[number];

export type Cell = { result: 'pass' } | { result: 'fail' | 'not offered' | 'not tested'; reason: string };

export type Row = { type: number; name: string; cells: Cell[] };

/** The table, with each reason once as a numbered note under it. */
export function renderMatrix(rows: Row[]): string {
  const notes: string[] = [];
  const noteOf = (reason: string) => {
    const index = notes.indexOf(reason);
    if (index >= 0) return index + 1;
    notes.push(reason);
    return notes.length;
  };
  const text = (cell: Cell) =>
    cell.result === 'pass'
      ? '✅ pass'
      : `${cell.result === 'fail' ? '❌ ' : ''}${cell.result} [${noteOf(cell.reason)}]`;
  const lines = [
    `| Channel type | ${OPERATIONS.join(' | ')} |`,
    `|---|${OPERATIONS.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.name} | ${row.cells.map(text).join(' | ')} |`),
    '',
    ...notes.map((note, index) => `${index + 1}. ${note.replace(/\s+/g, ' ')}`),
  ];
  return lines.join('\n');
}

const DOC = new URL('../../../../docs/providers.md', import.meta.url);
const START = '<!-- conformance-matrix:start (written by apps/server/test/provider-conformance.test.ts) -->';
const END = '<!-- conformance-matrix:end -->';

/** Between the markers of docs/providers.md, formatted as `npm run format` would, written only when changed. */
export async function writeMatrix(table: string): Promise<void> {
  const current = readFileSync(DOC, 'utf8');
  const start = current.indexOf(START);
  const end = current.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/providers.md has lost its matrix markers (${START})`);
  const path = fileURLToPath(DOC);
  const next = await format(
    `${current.slice(0, start + START.length)}\n\n${table}\n\n${current.slice(end)}`,
    {
      ...(await resolveConfig(path)),
      filepath: path,
    },
  );
  if (next !== current) writeFileSync(DOC, next);
}
