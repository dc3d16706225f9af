import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ChannelType, Role, TokenStatus } from '@gatehouse/shared';
import { loadConfig } from '../../src/config/config';
import { createDatabase, type Db } from '../../src/db/database';
import { insertUser } from '../../src/users/user-repository';
import { startGatewayChild, type GatewayChild } from './gateway-child';

/**
 * Helpers for tests that run real gateway processes (gateway-child.ts) on one database: the test's own
 * connection to that database for seeding and reading the ledger, the management API as root, the relay.
 */
export async function openDatabase(database: { sqlDsn: string; sqlitePath: string }): Promise<Db> {
  const config = loadConfig({ SQL_DSN: database.sqlDsn, SQLITE_PATH: database.sqlitePath });
  return createDatabase(config);
}

/** A SQLite file in a new folder named after `prefix`, the folder removed by one of `cleanups`. */
export function temporarySqlite(
  prefix: string,
  cleanups: Array<() => Promise<void> | void>,
): { sqlDsn: string; sqlitePath: string } {
  const folder = mkdtempSync(path.join(tmpdir(), `gatehouse-${prefix}-`));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  return { sqlDsn: '', sqlitePath: path.join(folder, 'gatehouse.db') };
}

/** The root's access token the children are started with (INITIAL_ROOT_ACCESS_TOKEN). */
export const ROOT_ACCESS_TOKEN = `fleet${randomBytes(12).toString('hex')}`;

/**
 * One HTTP request on a connection of its own, closed after the answer. Clients that keep connections alive
 * stay with the worker that accepted them, so spreading requests over workers needs new connections.
 */
export function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      { method: options.method ?? 'GET', headers: options.headers, agent: false },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () =>
          resolve({
            status: incoming.statusCode ?? 0,
            headers: incoming.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        incoming.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

/** The first 8 characters of a request id name the process that answered. */
export const processOf = (headers: Record<string, string | string[] | undefined>): string =>
  String(headers['x-request-id'] ?? '').slice(0, 8);

export async function callApi(
  baseUrl: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<{ success: boolean; message: string; data: unknown }> {
  const response = await send(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: ROOT_ACCESS_TOKEN,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return JSON.parse(response.text) as { success: boolean; message: string; data: unknown };
}

let counter = 0;

export interface SeededKey {
  userId: number;
  username: string;
  tokenId: number;
  /** as a client sends it: sk-… */
  key: string;
}

/** A user with quota and one limited key, written straight into the database. */
export async function seedUserWithKey(
  db: Db,
  limits: { tokenRpm?: number; userMaxParallel?: number } = {},
): Promise<SeededKey> {
  counter += 1;
  const username = `fleet${process.pid % 1000}u${counter}`.slice(0, 12);
  const user = await insertUser(db, {
    username,
    password: 'not-used-for-sign-in',
    role: Role.common,
    quota: 10_000_000,
    group: 'default',
  });
  await db
    .updateTable('users')
    .set({ max_parallel_requests: limits.userMaxParallel ?? 0 })
    .where('id', '=', user.id)
    .execute();
  const key = `fleet${counter}x${randomBytes(8).toString('hex')}`;
  const now = Math.floor(Date.now() / 1000);
  await db
    .insertInto('tokens')
    .values({
      user_id: user.id,
      key,
      name: `fleet key ${counter}`,
      status: TokenStatus.enabled,
      created_time: now,
      accessed_time: now,
      expired_time: -1,
      remain_quota: 10_000_000,
      unlimited_quota: 0,
      models: '',
      subnet: '',
      rpm_limit: limits.tokenRpm ?? 0,
    })
    .execute();
  const row = await db.selectFrom('tokens').select('id').where('key', '=', key).executeTakeFirstOrThrow();
  return { userId: user.id, username, tokenId: row.id, key: `sk-${key}` };
}

/** One chat request; answers the status and the request id (its first 8 characters name the process). */
export async function askChat(
  baseUrl: string,
  key: string,
  model = 'gpt-4o',
): Promise<{ status: number; process: string }> {
  const response = await send(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  });
  return { status: response.status, process: processOf(response.headers) };
}

/** One chat request as the load of the crash tests sends it, streamed or not: the raw answer. */
export function sendChat(baseUrl: string, key: string, stream: boolean): ReturnType<typeof send> {
  return send(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'gpt-4o',
      stream,
      max_tokens: 20,
      messages: [{ role: 'user', content: 'hi' }],
    }),
  });
}

/** Polls `check` until it holds; fails naming `what` after `deadlineMs`. Answers how long it took. */
export async function waitUntil(
  what: string,
  deadlineMs: number,
  check: () => Promise<boolean> | boolean,
): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > deadlineMs) throw new Error(`not within ${deadlineMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Date.now() - started;
}

/** Starts a request burst early enough in a minute that an RPM window cannot roll over in the middle of it. */
export async function awayFromMinuteEnd(): Promise<void> {
  const remainingMs = 60_000 - (Date.now() % 60_000);
  if (remainingMs < 8000) await new Promise((resolve) => setTimeout(resolve, remainingMs + 50));
}

/**
 * A gateway child on `database` (root's access token set, `env` added) with an OpenAI channel named
 * `channel.name` serving gpt-4o from `channel.upstreamUrl`, and the test's own connection to that database;
 * `cleanups` gets what stops both.
 */
export async function startGatewayWithChannel(
  bundle: string,
  database: { sqlDsn: string; sqlitePath: string },
  env: Record<string, string>,
  channel: { name: string; upstreamUrl: string },
  cleanups: Array<() => unknown>,
): Promise<{ gateway: GatewayChild; db: Db }> {
  const gateway = await startGatewayChild(bundle, database, {
    INITIAL_ROOT_ACCESS_TOKEN: ROOT_ACCESS_TOKEN,
    ...env,
  });
  cleanups.push(() => gateway.kill());
  const db = await openDatabase(database);
  cleanups.push(() => db.destroy());
  await callApi(gateway.url, 'POST', '/api/channel/', {
    type: ChannelType.openai,
    name: channel.name,
    key: 'sk-upstream',
    base_url: channel.upstreamUrl,
    models: 'gpt-4o',
    group: 'default',
  });
  return { gateway, db };
}
