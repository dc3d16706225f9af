import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleServer, MAX_FILE_BYTES } from '../bundle.mjs';

const SERVER_ROOT = fileURLToPath(new URL('..', import.meta.url));
const cache = path.join(SERVER_ROOT, '../../node_modules/.cache');
let outdir = '';

function listScripts(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.js'))
    .map((name) => path.join(dir, name));
}

describe('the server bundle', () => {
  beforeAll(async () => {
    mkdirSync(cache, { recursive: true });
    outdir = mkdtempSync(path.join(cache, 'gatehouse-bundle-'));
    await bundleServer(path.join(SERVER_ROOT, '../..'), outdir);
  }, 60_000);
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('has no file larger than MAX_FILE_BYTES, so none raises malloc’s thresholds past it', () => {
    const sizes = Object.fromEntries(
      listScripts(outdir).map((file) => [path.relative(outdir, file), statSync(file).size]),
    );
    const tooLarge = Object.entries(sizes).filter(([, size]) => size > MAX_FILE_BYTES);
    expect(tooLarge, `seams in bundle.mjs keep every file under ${MAX_FILE_BYTES} bytes`).toEqual([]);
  });

  it('never loads a seam’s own file: it only marks where to cut', () => {
    const importers = listScripts(outdir).filter((file) =>
      /["/]seam-[\w-]+\.js"/.test(readFileSync(file, 'utf8')),
    );
    expect(importers.map((file) => path.relative(outdir, file))).toEqual([]);
  });
});
