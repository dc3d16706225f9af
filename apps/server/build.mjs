// Bundles the server into dist/main.js. Packages stay external (installed by npm); only our TypeScript,
// including @gatehouse/shared, is compiled in.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  packages: 'external',
  alias: { '@gatehouse/shared': '../../packages/shared/src/index.ts' },
  logLevel: 'warning',
});
