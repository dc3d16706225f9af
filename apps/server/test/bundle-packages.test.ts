import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { isCommonJsFile, packagesPlugin, REQUIRE_BANNER } from '../bundle-packages.mjs';

const SERVER_ROOT = fileURLToPath(new URL('..', import.meta.url));
const requireFromServer = createRequire(path.join(SERVER_ROOT, 'src/main.ts'));
// Under node_modules, so that what the bundle leaves to Node resolves from the repository's packages.
const cache = path.join(SERVER_ROOT, '../../node_modules/.cache');
mkdirSync(cache, { recursive: true });
const outdir = mkdtempSync(path.join(cache, 'gatehouse-bundle-packages-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

/** Bundles `code` (as if it were a file of src/) the way bundle.mjs bundles the server, and imports it. */
async function bundleAndImport(name: string, code: string): Promise<Record<string, unknown>> {
  const outfile = path.join(outdir, `${name}.mjs`);
  await build({
    stdin: {
      contents: code,
      resolveDir: path.join(SERVER_ROOT, 'src'),
      loader: 'ts',
      sourcefile: `${name}.ts`,
    },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    plugins: [packagesPlugin(path.join(SERVER_ROOT, 'src'))],
    banner: { js: REQUIRE_BANNER },
    logLevel: 'silent',
  });
  return (await import(pathToFileURL(outfile).href)) as Record<string, unknown>;
}

describe('how the server bundle loads packages', () => {
  it('hands over a CommonJS package as Node’s import would: the exports object, and its properties by name', async () => {
    const loaded = await bundleAndImport(
      'commonjs',
      `import Fastify, { fastify } from 'fastify';
       import pino from 'pino';
       export { Fastify, fastify, pino };`,
    );
    const nodeFastify = requireFromServer('fastify') as { fastify: unknown };
    expect(loaded.Fastify).toBe(nodeFastify);
    expect(loaded.fastify).toBe(nodeFastify.fastify);
    expect(loaded.pino).toBe(requireFromServer('pino'));
  });

  it('compiles zod in with its English messages, and no other language', async () => {
    const loaded = await bundleAndImport(
      'zod',
      `import { z } from 'zod';
       export const message = z.string().safeParse(1).error?.issues[0]?.message;
       export const locales = Object.keys(z.locales);`,
    );
    expect(loaded.message).toBe('Invalid input: expected string, received number');
    expect(loaded.locales).toEqual(['en']);
  });

  it('tells CommonJS files from ES modules as Node does', () => {
    expect(isCommonJsFile(requireFromServer.resolve('fastify'))).toBe(true);
    expect(
      isCommonJsFile(path.join(path.dirname(requireFromServer.resolve('kysely')), '../esm/index.js')),
    ).toBe(false);
    expect(isCommonJsFile('/any/where/file.cjs')).toBe(true);
    expect(isCommonJsFile('/any/where/file.mjs')).toBe(false);
  });
});
