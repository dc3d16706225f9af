import { readFileSync, writeFileSync } from 'node:fs';

const READMES = {
  bench: new URL('./README.md', import.meta.url),
  root: new URL('../README.md', import.meta.url),
} as const;

/**
 * Replaces what stands between `<!-- bench:NAME:start -->` and `<!-- bench:NAME:end -->` in bench/README.md,
 * or in the repository's README.
 */
export function writeReadmeSection(name: string, content: string, which: keyof typeof READMES = 'bench'): void {
  const README = READMES[which];
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const text = readFileSync(README, 'utf8');
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${README.pathname} has no ${start} … ${end} section`);
  writeFileSync(README, `${text.slice(0, from + start.length)}\n${content}\n${text.slice(to)}`);
  console.log(`wrote the ${name} section of ${README.pathname}`);
}
