import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/auth/password';
import { hasDefaultRootPassword } from '../src/users/seed';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';
import { loginAs } from './test-app';

interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

const DEBUG = 20;
const INFO = 30;

let kit: RelayKit;
let upstream: OpenAIUpstream;
let dist: string;
const lines: LogLine[] = [];
const rawLines: string[] = [];

beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'gatehouse-console-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Gatehouse console</title>');
  writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
  upstream = await startOpenAIUpstream('alpha');
  const stream = {
    write(line: string) {
      rawLines.push(line);
      lines.push(JSON.parse(line) as LogLine);
    },
  };
  kit = await startRelayKit({ WEB_DIST_PATH: dist }, { logger: { level: 'debug', stream } });
  await kit.createChannel({ upstream, models: 'gpt-4o-mini' });
});
afterAll(async () => {
  await kit.close();
  await upstream.close();
  rmSync(dist, { recursive: true, force: true });
});

/** The request line of `path` once the server has logged it (it does when the answer has been sent). */
async function requestLine(requestPath: string): Promise<LogLine> {
  await expect.poll(() => lines.some((line) => line.path === requestPath)).toBe(true);
  const found = lines.filter((line) => line.path === requestPath);
  expect(found).toHaveLength(1);
  return found[0];
}

describe('request lines', () => {
  it('logs a relay request once, at info, with model and key name but never the key', async () => {
    const user = await kit.createUser();
    const { key } = await kit.createKey(user.id, { name: 'billing app' });
    const response = await fetch(`${kit.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(200);
    await response.text();
    const line = await requestLine('/v1/chat/completions');
    expect(line).toMatchObject({
      level: INFO,
      msg: 'request completed',
      method: 'POST',
      status: 200,
      model: 'gpt-4o-mini',
      keyName: 'billing app',
    });
    expect(line.durationMs).toBeTypeOf('number');
    expect(line.reqId).toBe(response.headers.get('x-request-id'));
    expect(rawLines.join('')).not.toContain(key.slice(3));
    expect(lines.some((entry) => entry.msg === 'incoming request')).toBe(false);
  });

  it('logs a Gemini client’s request without the key it sent as ?key=, taken or refused', async () => {
    const user = await kit.createUser();
    const { key } = await kit.createKey(user.id, { name: 'gemini app' });
    const path = '/v1beta/models/gpt-4o-mini:generateContent';
    const body = JSON.stringify({ contents: [{ parts: [{ text: 'hi' }] }] });
    const taken = await fetch(`${kit.gatewayUrl}${path}?key=${key}`, { method: 'POST', body });
    expect(taken.status).toBe(200);
    await taken.text();
    const refusedKey = 'sk-not-a-key-0123456789';
    const refused = await fetch(`${kit.gatewayUrl}/v1beta/models?key=${refusedKey}`);
    expect(refused.status).toBe(401);
    await refused.text();
    expect(await requestLine(path)).toMatchObject({ level: INFO, status: 200, keyName: 'gemini app' });
    expect(await requestLine('/v1beta/models')).toMatchObject({ status: 401 });
    const written = rawLines.join('');
    expect(written).not.toContain(key.slice(3));
    expect(written).not.toContain('not-a-key-0123456789');
  });

  it('logs a refused key without its name or the key it was given', async () => {
    const response = await fetch(`${kit.gatewayUrl}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-not-a-real-key-1234', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'text-embedding-3-small', input: 'hi' }),
    });
    expect(response.status).toBe(401);
    const line = await requestLine('/v1/embeddings');
    expect(line).toMatchObject({ level: INFO, status: 401 });
    expect(line.keyName).toBeUndefined();
    expect(rawLines.join('')).not.toContain('not-a-real-key');
  });

  it('logs management API requests at info with the user, and no query string', async () => {
    const session = await loginAs(kit.test, 'root', '123456');
    const response = await kit.test.app.inject({
      url: '/api/user/self?code=secret-code-123',
      headers: session.headers,
    });
    expect(response.statusCode).toBe(200);
    const line = await requestLine('/api/user/self');
    expect(line).toMatchObject({ level: INFO, method: 'GET', status: 200, user: 'root' });
    expect(line.model).toBeUndefined();
    expect(rawLines.join('')).not.toContain('secret-code-123');
  });

  it("logs the console's pages and files at debug", async () => {
    expect((await kit.test.app.inject({ url: '/assets/index-abc123.js' })).statusCode).toBe(200);
    expect((await kit.test.app.inject({ url: '/token' })).statusCode).toBe(200);
    expect(await requestLine('/assets/index-abc123.js')).toMatchObject({ level: DEBUG, status: 200 });
    expect(await requestLine('/token')).toMatchObject({ level: DEBUG, status: 200 });
  });
});

describe("the start banner's sign-in hint", () => {
  it('stays while root has the default password and goes once it is changed', async () => {
    const { db } = kit.test.context;
    expect(await hasDefaultRootPassword(db)).toBe(true);
    await db
      .updateTable('users')
      .set({ password: await hashPassword('a-better-password') })
      .where('username', '=', 'root')
      .execute();
    expect(await hasDefaultRootPassword(db)).toBe(false);
  });
});
