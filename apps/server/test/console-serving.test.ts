import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test-app';

let test: TestApp;
let dist: string;

beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'gatehouse-console-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Gatehouse console</title>');
  writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
  writeFileSync(path.join(dist, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  test = await createTestApp({ WEB_DIST_PATH: dist });
});
afterAll(async () => {
  await test.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('serving the console', () => {
  it('answers client routes with index.html, never cached', async () => {
    for (const url of ['/', '/token', '/channel/edit/5', '/user/reset?email=a@b.c&token=x']) {
      const response = await test.app.inject({ url });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('Gatehouse console');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('caches hashed assets for a year and other files not at all', async () => {
    const asset = await test.app.inject({ url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const logo = await test.app.inject({ url: '/logo.svg' });
    expect(logo.headers['cache-control']).toBe('no-cache');
  });

  it('keeps unknown API paths and non-GET requests out of the fallback', async () => {
    const api = await test.app.inject({ url: '/api/nothing-here' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ success: false });
    const post = await test.app.inject({ method: 'POST', url: '/token' });
    expect(post.statusCode).toBe(404);
    expect(post.body).not.toContain('Gatehouse console');
  });
});
