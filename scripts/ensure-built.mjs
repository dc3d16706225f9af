// Builds the console and the server when their sources are newer than the last build.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isStale, targets } from './build-state.mjs';

process.chdir(fileURLToPath(new URL('..', import.meta.url)));
for (const target of targets) {
  if (!isStale(target.output, target.sources)) continue;
  console.log(`building the ${target.name}…`);
  execFileSync('npm', ['run', 'build', '-w', target.workspace], { stdio: 'inherit' });
}
