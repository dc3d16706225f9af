// Decides whether a build output is older than its sources, so `npm start` builds only what changed.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

function newestModification(target) {
  if (!existsSync(target)) return 0;
  const stats = statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestModification(path.join(target, entry)));
  }
  return newest;
}

export function isStale(output, sources) {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return sources.some((source) => newestModification(source) > built);
}

export const targets = [
  {
    name: 'console',
    workspace: '@gatehouse/web',
    output: 'apps/web/dist/index.html',
    sources: ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/shared/src'],
  },
  {
    name: 'server',
    workspace: '@gatehouse/server',
    output: 'apps/server/dist/main.js',
    sources: ['apps/server/src', 'packages/shared/src', 'package.json'],
  },
];
