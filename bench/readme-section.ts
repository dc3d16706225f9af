import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';

const READMES = {
  bench: new URL('./README.md', import.meta.url),
  root: new URL('../README.md', import.meta.url),
} as const;

/**
 * Replaces what stands between `<!-- bench:NAME:start -->` and `<!-- bench:NAME:end -->` in bench/README.md,
 * or in the repository's README.
 */
export async function writeReadmeSection(
  name: string,
  content: string,
  which: keyof typeof READMES = 'bench',
): Promise<void> {
  const README = READMES[which];
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const text = readFileSync(README, 'utf8');
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${README.pathname} has no ${start} … ${end} section`);
  // Formatted as the repository formats Markdown (aligned tables), the section alone: the rest stays as it is.
  const formatted = await format(content, {
    ...(await resolveConfig(fileURLToPath(README))),
    parser: 'markdown',
  });
  writeFileSync(README, `${text.slice(0, from + start.length)}\n\n${formatted}\n${text.slice(to)}`);
  console.log(`wrote the ${name} section of ${README.pathname}`);
}
