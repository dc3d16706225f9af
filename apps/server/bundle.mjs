// How the server is bundled, shared by build.mjs (dist/main.js), the benchmark (bench/build-children.ts) and
// the tests' gateway child, which must all run what `npm start` runs.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { packagesPlugin, REQUIRE_BANNER } from './bundle-packages.mjs';

/**
 * Bundles `<root>/apps/server/src/main.ts` into `<outdir>/main.js`; answers that path. Packages stay external
 * (installed by npm) but for the few bundle-packages.mjs compiles in, and CommonJS ones are loaded with
 * `require` (see there); our TypeScript, including @gatehouse/shared, is compiled in. What main.ts loads
 * with `import()` goes into `<outdir>/chunks/` (ESM code splitting): the primary of WORKERS=n loads the
 * cluster code only, not the server.
 */
export async function bundleServer(root, outdir) {
  const result = await build({
    entryPoints: [path.join(root, 'apps/server/src/main.ts')],
    outdir,
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    splitting: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    plugins: [packagesPlugin()],
    banner: { js: REQUIRE_BANNER },
    alias: { '@gatehouse/shared': path.join(root, 'packages/shared/src/index.ts') },
    logLevel: 'warning',
    write: false,
  });
  // Chunk names change with their content: the previous build's would pile up.
  rmSync(path.join(outdir, 'chunks'), { recursive: true, force: true });
  for (const file of result.outputFiles) {
    mkdirSync(path.dirname(file.path), { recursive: true });
    writeFileSync(file.path, file.path.endsWith('.js') ? escapeNonAscii(file.text) : file.contents);
  }
  return path.join(outdir, 'main.js');
}

/**
 * V8 keeps a module's source in memory for as long as it runs, one byte per character, or two for the whole
 * file when any character is beyond Latin-1. esbuild escapes strings but keeps comments (and regular
 * expressions) as written, so one `→` in a comment doubled the resident source (2 MB instead of 1). Escaping
 * is harmless in comments and means the same in regular expressions and strings.
 */
function escapeNonAscii(code) {
  return code.replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
