// How the server is bundled, shared by build.mjs (dist/main.js), the benchmark (bench/build-children.ts) and
// the tests' gateway child, which must all run what `npm start` runs.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { packageEntry, packagesPlugin, REQUIRE_BANNER } from './bundle-packages.mjs';

/**
 * Where the bundle is cut into more files than main.ts and its `import()`s need: each seam's modules leave the
 * serve chunk for a chunk of their own (all are still loaded at start). Why: Node reads a module file whole into
 * one buffer, and freeing a buffer that large raises glibc's mmap threshold to its size and the trim threshold
 * to twice that (malloc's dynamic threshold, `man mallopt`). Below those, what V8's compiler threads use at
 * start stays resident once they free it: ~6 MB at rest with a 1.9 MB chunk, ~2 MB with no file over 0.5 MB
 * (bench/README.md, idle RSS). esbuild gives the modules two entry points share a chunk of their own, so a
 * seam is an extra entry point; its own file (`chunks/seam-*.js`, re-exports only) is never loaded.
 * bundle.test.ts keeps every file under MAX_FILE_BYTES.
 */
const SEAMS = [
  packageEntry('kysely'),
  packageEntry('zod'),
  'apps/server/src/providers/provider-registry.ts',
  'apps/server/src/relay/register-relay-routes.ts',
];
export const MAX_FILE_BYTES = 512 * 1024;

/**
 * Bundles `<root>/apps/server/src/main.ts` into `<outdir>/main.js`; answers that path. Packages stay external
 * (installed by npm) but for the few bundle-packages.mjs compiles in, and CommonJS ones are loaded with
 * `require` (see there); our TypeScript, including @gatehouse/shared, is compiled in. What main.ts loads
 * with `import()` goes into `<outdir>/chunks/` (ESM code splitting): the primary of WORKERS=n loads the
 * cluster code only, not the server.
 */
export async function bundleServer(root, outdir) {
  const result = await build({
    entryPoints: [
      path.join(root, 'apps/server/src/main.ts'),
      ...SEAMS.map((seam) => ({
        in: seam.startsWith('apps/') ? path.join(root, seam) : seam,
        out: `chunks/seam-${path.basename(seam, '.ts').replace(/^.*:/, '')}`,
      })),
    ],
    outdir,
    outbase: path.join(root, 'apps/server/src'),
    entryNames: '[dir]/[name]',
    chunkNames: 'chunks/[name]-[hash]',
    splitting: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    plugins: [packagesPlugin(path.join(root, 'apps/server/src'))],
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
