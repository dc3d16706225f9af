// How the server bundle (bundle.mjs) loads npm packages. Measured on the idle server (bench/README.md, "idle
// RSS"): what Node does to load a package costs resident memory of its own, beyond the package's code.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Packages compiled into the bundle instead of loaded from node_modules: pure ESM, no files of their own to
 * read at run time. As node_modules files they were ~360 ES modules (kysely 262, zod 95) that Node resolves,
 * reads, links and keeps one record each of; resolving them ran hot enough to have V8 optimise its module
 * loader on background threads, whose scratch memory stays with those threads. Bundled: ~4 MB less RSS.
 */
export const BUNDLED_PACKAGES = new Set(['kysely', 'zod']);

/**
 * zod's index exports every language of its error messages (`z.locales`, ~50 files of mostly non-Latin-1
 * text, which bundle.mjs's escaping makes six bytes a character). The server uses English only (zod's default,
 * set by its schemas module, not through this index), so the bundle's copy of the index exports English alone.
 * The path is checked by bundle-packages.test.ts, so a zod that moves it fails a test instead of growing.
 */
export const ZOD_LOCALES_INDEX = /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/;

/** An entry point that is a package's whole API: `packageEntry('kysely')` (see bundle.mjs's seams). */
export function packageEntry(name) {
  return `package-entry:${name}`;
}
const PACKAGE_ENTRY = /^package-entry:/;
const PACKAGE_ENTRY_NAMESPACE = 'package-entry';

/** A stand-in module that hands over what Node's `require` loads (the bundle's banner defines `require`). */
const COMMONJS_NAMESPACE = 'commonjs-package';

function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Whether Node runs a file as CommonJS: `.cjs`, or `.js` under a package.json without `"type": "module"`. */
export function isCommonJsFile(file) {
  if (file.endsWith('.cjs')) return true;
  if (!file.endsWith('.js')) return false;
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    let manifest;
    try {
      manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    } catch {
      continue;
    }
    return manifest.type !== 'module';
  }
  return true;
}

/**
 * Every other package stays external. A CommonJS package our code imports statically is loaded with `require`
 * rather than `import`: Node imports CommonJS by first scanning its source for export names (cjs-module-lexer),
 * which for fastify's, pino's and libsql's files ran long enough to be optimised, 3-4 MB of RSS at rest for
 * nothing we use. The module Node loads is the same file either way (checked: `import` and `require` must
 * resolve it alike), and esbuild hands its `module.exports` over as Node's import would (default = the
 * exports object, names = its properties). Dynamic `import()`s of packages stay as they are: lazy.
 */
export function packagesPlugin(sourceDir) {
  return {
    name: 'gatehouse-packages',
    setup(build) {
      build.onResolve({ filter: PACKAGE_ENTRY }, (args) => ({
        path: args.path.replace(PACKAGE_ENTRY, ''),
        namespace: PACKAGE_ENTRY_NAMESPACE,
      }));
      build.onLoad({ filter: /.*/, namespace: PACKAGE_ENTRY_NAMESPACE }, (args) => ({
        contents: `export * from ${JSON.stringify(args.path)};`,
        loader: 'js',
        resolveDir: sourceDir,
      }));
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        // Node's own modules, our workspace package (bundle.mjs aliases it to its sources) and the lookups below.
        if (args.path.startsWith('node:') || args.path.startsWith('@gatehouse/')) return undefined;
        if (args.pluginData === COMMONJS_NAMESPACE) return undefined;
        if (BUNDLED_PACKAGES.has(packageName(args.path))) return undefined;
        if (args.kind === 'import-statement' && args.namespace === 'file') {
          const options = {
            resolveDir: args.resolveDir,
            importer: args.importer,
            pluginData: COMMONJS_NAMESPACE,
          };
          const [imported, required] = await Promise.all([
            build.resolve(args.path, { ...options, kind: 'import-statement' }),
            build.resolve(args.path, { ...options, kind: 'require-call' }),
          ]);
          const isSameFile = imported.errors.length === 0 && imported.path === required.path;
          if (isSameFile && isCommonJsFile(imported.path))
            return { path: args.path, namespace: COMMONJS_NAMESPACE };
        }
        return { path: args.path, external: true };
      });
      build.onResolve({ filter: /.*/, namespace: COMMONJS_NAMESPACE }, (args) => ({
        path: args.path,
        external: true,
      }));
      build.onLoad({ filter: /.*/, namespace: COMMONJS_NAMESPACE }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(args.path)});`,
        loader: 'js',
      }));
      build.onLoad({ filter: ZOD_LOCALES_INDEX }, () => ({
        contents: "export { default as en } from './en.js';",
        loader: 'js',
      }));
    },
  };
}

/**
 * Put at the top of every output file: the `require` the stand-in modules call (esbuild's ESM output reaches
 * it through its `__require` helper), resolving from the output file as `import` did.
 */
export const REQUIRE_BANNER =
  "import { createRequire as __gatehouseCreateRequire } from 'node:module';\n" +
  'const require = __gatehouseCreateRequire(import.meta.url);';
