import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const sourceRoot = fileURLToPath(new URL('../src', import.meta.url));

function listSources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return listSources(full);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** `import … from './x'` and `export … from './x'`, type-only ones included: a circle of types is still a circle of layers. */
const importPattern = /^\s*(?:import|export)\s[^;]*?\sfrom\s+'(\.{1,2}\/[^']+)'/gms;

function resolveImport(from: string, specifier: string, files: Set<string>): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  return [base, `${base}.ts`, path.join(base, 'index.ts')].find((candidate) => files.has(candidate));
}

/** The server's import graph: each source file (relative to src) and the files it imports. */
function readImportGraph(): Map<string, string[]> {
  const files = listSources(sourceRoot);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(importPattern)]
      .map((match) => resolveImport(file, match[1]!, known))
      .filter((target): target is string => target !== undefined)
      .map((target) => path.relative(sourceRoot, target));
    graph.set(path.relative(sourceRoot, file), [...new Set(targets)]);
  }
  return graph;
}

/**
 * The groups of files that import each other in a circle (strongly connected components with more than one
 * file, or a file importing itself), by Tarjan's algorithm: any circle at all lands in exactly one group.
 */
export function findImportCircles(graph = readImportGraph()): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const connect = (file: string) => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || (graph.get(file) ?? []).includes(file)) circles.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) connect(file);
  return circles;
}

/** Known circles, being reworked by their owners. Remove files from this list as they are broken; never add any. */
const knownCircleFiles = new Set<string>([]);

describe('apps/server/src', () => {
  it('has no import circles (docs/architecture.md: imports point one way, down the layers)', () => {
    const circles = findImportCircles().filter((group) => !group.every((file) => knownCircleFiles.has(file)));
    expect(circles).toEqual([]);
  });

  it('finds a circle when there is one', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(findImportCircles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });
});
