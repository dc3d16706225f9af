import { readFileSync, writeFileSync } from 'node:fs';

const README = new URL('./README.md', import.meta.url);

/** Replaces what stands between `<!-- bench:NAME:start -->` and `<!-- bench:NAME:end -->` in bench/README.md. */
export function writeReadmeSection(name: string, content: string): void {
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const text = readFileSync(README, 'utf8');
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`bench/README.md has no ${start} … ${end} section`);
  writeFileSync(README, `${text.slice(0, from + start.length)}\n${content}\n${text.slice(to)}`);
  console.log(`wrote the ${name} section of bench/README.md`);
}
