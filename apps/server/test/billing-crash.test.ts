import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType } from '@gatehouse/shared';
import { ManagementClient } from '../../../bench/management-client';
import { loadConfig } from '../src/config/config';
import { createDatabase, type Db } from '../src/db/database';
import { RELEASE_NOTE } from '../src/billing/reservation-recovery';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { externalDatabaseServers, isListening, type ExternalDatabase } from './support/external-databases';
import { bundleGateway, startGatewayChild, type GatewayChild } from './support/gateway-child';

/**
 * The ledger across `kill -9`: the real server in a child process under parallel streaming and JSON load from
 * the openai SDK, killed mid-load, started again on the same database. Afterwards the balances, the key and
 * the logs agree, every answer a client got whole is billed once, and no reservation is left taken.
 */
const CLIENTS = 32;
const LOAD_MS = 3_000;
const MODEL = 'gpt-4o-mini';

let bundle: string;
let upstream: OpenAIUpstream;
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  bundle = await bundleGateway();
  cleanups.push(() => rmSync(path.dirname(bundle), { recursive: true, force: true }));
  // Slow enough that many answers are under way at any moment, whole ones finish all the time.
  upstream = await startOpenAIUpstream('crash', {
    delayMs: 20,
    chunkDelayMs: 15,
    words: ['One', ' two', ' three', ' four', ' five'],
    usage: { prompt: 20, completion: 10 },
  });
  cleanups.push(() => upstream.close());
}, 60_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

interface Provisioned {
  apiKey: string;
  userId: number;
  tokenName: string;
  userQuota: number;
  tokenQuota: number;
}

async function provision(gateway: GatewayChild): Promise<Provisioned> {
  const management = new ManagementClient(gateway.url);
  await management.login('root', '123456');
  const root = await management.call<{ id: number }>('GET', '/api/user/self');
  const userQuota = 1_000_000_000;
  await management.call('PUT', '/api/user/', { id: root.id, quota: userQuota });
  await management.call('POST', '/api/channel/', {
    type: 1,
    name: 'crash stand-in',
    key: 'sk-upstream',
    base_url: upstream.url,
    models: MODEL,
    group: 'default',
  });
  const tokenName = 'crash';
  const tokenQuota = 500_000_000;
  const token = await management.call<{ key: string }>('POST', '/api/token/', {
    name: tokenName,
    remain_quota: tokenQuota,
    expired_time: -1,
    unlimited_quota: false,
  });
  return { apiKey: `sk-${token.key}`, userId: root.id, tokenName, userQuota, tokenQuota };
}

/** Request ids of the answers a client received whole: a JSON body parsed, a stream read to its [DONE]. */
async function driveLoadAndKill(gateway: GatewayChild, apiKey: string) {
  const streamsDone = new Set<string>();
  // Wraps fetch to see the stream's bytes: the SDK's iterator does not say whether [DONE] came.
  const watchingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const id = response.headers.get('x-request-id') ?? '';
    if (!response.body || !(response.headers.get('content-type') ?? '').includes('event-stream'))
      return response;
    const decoder = new TextDecoder();
    let tail = '';
    const watched = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          tail = (tail + decoder.decode(chunk, { stream: true })).slice(-64);
          controller.enqueue(chunk);
        },
        flush() {
          if (tail.includes('data: [DONE]')) streamsDone.add(id);
        },
      }),
    );
    return new Response(watched, { status: response.status, headers: response.headers });
  };
  const client = new OpenAI({
    apiKey,
    baseURL: `${gateway.url}/v1`,
    maxRetries: 0,
    timeout: 20_000,
    fetch: watchingFetch,
  });
  const complete: string[] = [];
  let isStopped = false;
  let failures = 0;
  const failureMessages = new Set<string>();
  const runClient = async (index: number) => {
    for (let turn = 0; !isStopped; turn += 1) {
      const messages = [{ role: 'user' as const, content: `client ${index} turn ${turn}` }];
      try {
        if ((index + turn) % 2 === 0) {
          const { data, response } = await client.chat.completions
            .create({ model: MODEL, messages, max_tokens: 32 })
            .withResponse();
          if (data.choices[0]?.message.content) complete.push(response.headers.get('x-request-id') ?? '');
        } else {
          const { data: stream, response } = await client.chat.completions
            .create({ model: MODEL, messages, max_tokens: 32, stream: true })
            .withResponse();
          for await (const chunk of stream) void chunk;
          const id = response.headers.get('x-request-id') ?? '';
          if (streamsDone.has(id)) complete.push(id);
        }
      } catch (error) {
        if (isStopped) return;
        failures += 1;
        failureMessages.add(String(error));
      }
    }
  };
  const clients = Array.from({ length: CLIENTS }, (_, index) => runClient(index));
  await new Promise((resolve) => setTimeout(resolve, LOAD_MS));
  // From here on a failure is the kill's doing; before it, none is expected (a deadlock would show here).
  isStopped = true;
  await gateway.kill();
  await Promise.all(clients);
  return { complete, failures, failureMessages: [...failureMessages].slice(0, 3) };
}

async function ledgerOf(db: Db, provisioned: Provisioned) {
  const user = await db
    .selectFrom('users')
    .select(['quota', 'used_quota'])
    .where('id', '=', provisioned.userId)
    .executeTakeFirstOrThrow();
  const token = await db
    .selectFrom('tokens')
    .select(['remain_quota', 'used_quota'])
    .where('name', '=', provisioned.tokenName)
    .executeTakeFirstOrThrow();
  const logs = await db
    .selectFrom('logs')
    .select(['request_id', 'quota', 'content'])
    .where('type', '=', LogType.consume)
    .where('user_id', '=', provisioned.userId)
    .execute();
  const reservations = await db.selectFrom('quota_reservations').select('id').execute();
  return {
    userDrop: provisioned.userQuota - Number(user.quota),
    userUsed: Number(user.used_quota),
    keyDrop: provisioned.tokenQuota - Number(token.remain_quota),
    keyUsed: Number(token.used_quota),
    logs: logs.map((log) => ({ ...log, quota: Number(log.quota) })),
    reservationsLeft: reservations.length,
  };
}

async function crashAndRecover(
  database: { sqlDsn: string; sqlitePath: string },
  env: Record<string, string> = {},
) {
  const first = await startGatewayChild(bundle, database, env);
  cleanups.push(() => first.kill());
  const provisioned = await provision(first);
  const { complete, failures, failureMessages } = await driveLoadAndKill(first, provisioned.apiKey);
  const db = await createDatabase(
    loadConfig({ SQL_DSN: database.sqlDsn, SQLITE_PATH: database.sqlitePath, SESSION_SECRET: 'crash-test' }),
  );
  cleanups.push(() => db.destroy());
  if (failures > 0) console.info(first.output().slice(0, 2000));
  const beforeRestart = await ledgerOf(db, provisioned);
  // Started again on the same database: the master releases what the killed process held before it listens.
  const second = await startGatewayChild(bundle, database, env);
  cleanups.push(() => second.kill());
  const after = await ledgerOf(db, provisioned);
  await second.kill();

  const billed = after.logs.filter((log) => log.quota > 0);
  const released = after.logs.filter((log) => log.content.startsWith(RELEASE_NOTE));
  const logSum = after.logs.reduce((sum, log) => sum + log.quota, 0);
  const summary = {
    complete: complete.length,
    failuresBeforeKill: failures,
    failureMessages,
    reservationsAtKill: beforeRestart.reservationsLeft,
    released: released.length,
    billed: billed.length,
    logSum,
    userDrop: after.userDrop,
    keyDrop: after.keyDrop,
  };
  const where = database.sqlDsn === '' ? `SQLite (${JSON.stringify(env)})` : database.sqlDsn.split(':')[0];
  console.info(`kill -9 on ${where}:`, summary);

  expect(failureMessages).toEqual([]);
  expect(complete.length).toBeGreaterThan(10);
  expect(after.reservationsLeft).toBe(0);
  expect(released.length).toBe(beforeRestart.reservationsLeft);
  expect(after.userDrop).toBe(logSum);
  expect(after.userUsed).toBe(logSum);
  expect(after.keyDrop).toBe(logSum);
  expect(after.keyUsed).toBe(logSum);
  // Every answer received whole is billed, exactly once.
  const billedIds = billed.map((log) => log.request_id);
  expect(new Set(billedIds).size).toBe(billedIds.length);
  const billedSet = new Set(billedIds);
  expect(complete.filter((id) => !billedSet.has(id))).toEqual([]);
}

describe('the ledger across kill -9 of the server', () => {
  // Its transactions on the main connection, and in the write thread (killed with the process, mid-commit
  // or not).
  for (const writeThread of ['off', 'on']) {
    it(`on SQLite, SQLITE_WRITE_THREAD=${writeThread}`, async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'gatehouse-crash-'));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      await crashAndRecover(
        { sqlDsn: '', sqlitePath: path.join(dataDir, 'gatehouse.db') },
        { SQLITE_WRITE_THREAD: writeThread },
      );
    }, 60_000);
  }

  for (const server of externalDatabaseServers) {
    it(`on ${server.name}`, async (context) => {
      if (!(await isListening(server.port))) context.skip();
      const database: ExternalDatabase = await server.create('gatehouse_crash');
      cleanups.push(() => database.drop());
      await crashAndRecover({ sqlDsn: database.dsn, sqlitePath: '' });
    }, 60_000);
  }
});
