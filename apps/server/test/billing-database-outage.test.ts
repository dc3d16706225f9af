import { rmSync } from 'node:fs';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType } from '@gatehouse/shared';
import { ManagementClient } from '../../../bench/management-client';
import { loadConfig } from '../src/config/config';
import { createDatabase, type Db } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';
import { RELEASE_NOTE } from '../src/billing/reservation-recovery';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { bundleGateway, startGatewayChild, type GatewayChild } from './support/gateway-child';
import {
  createPrivateMariadb,
  createPrivatePostgres,
  whyNoPrivateServer,
  type PrivateDatabaseServer,
} from './support/private-database-server';

/**
 * The database going away under load: a private PostgreSQL cluster and a private MariaDB server (never the
 * machine's shared ones), the real server in a child process on it, streaming and JSON clients through the
 * openai SDK, then the database stopped hard (`pg_ctl stop -m immediate`, `kill -9` of mariadbd) mid-run and
 * started again. Requests during the outage get an error answer (never a hang); once the database is back,
 * the running server itself writes what it owes (no reservation left while it still runs), every answer a
 * client received whole is billed exactly once, a JSON answer withheld because its charge failed is not
 * billed, and the balances, the key and the logs agree.
 */
const CLIENTS = 16;
const MODEL = 'gpt-4o-mini';
/** A request that takes longer than this is a hang: the SDK's own timeout turns it into a failure we see. */
const CLIENT_TIMEOUT_MS = 30_000;
const whyNoPostgres = whyNoPrivateServer('postgres');
const whyNoMariadb = whyNoPrivateServer('mariadb');

let upstream: OpenAIUpstream;
let bundle: string;
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  for (const [name, reason] of [
    ['PostgreSQL', whyNoPostgres],
    ['MariaDB', whyNoMariadb],
  ]) {
    if (reason) console.info(`skipping the ${name} outage: ${reason}`);
  }
  if (whyNoPostgres && whyNoMariadb) return;
  bundle = await bundleGateway();
  cleanups.push(() => rmSync(path.dirname(bundle), { recursive: true, force: true }));
  upstream = await startOpenAIUpstream('outage', {
    delayMs: 20,
    chunkDelayMs: 15,
    words: ['One', ' two', ' three', ' four', ' five'],
    usage: { prompt: 20, completion: 10 },
  });
  cleanups.push(() => upstream.close());
}, 180_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function provision(gateway: GatewayChild) {
  const management = new ManagementClient(gateway.url);
  await management.login('root', '123456');
  const root = await management.call<{ id: number }>('GET', '/api/user/self');
  const userQuota = 1_000_000_000;
  await management.call('PUT', '/api/user/', { id: root.id, quota: userQuota });
  await management.call('POST', '/api/channel/', {
    type: 1,
    name: 'outage stand-in',
    key: 'sk-upstream',
    base_url: upstream.url,
    models: MODEL,
    group: 'default',
  });
  const tokenQuota = 500_000_000;
  const token = await management.call<{ key: string }>('POST', '/api/token/', {
    name: 'outage',
    remain_quota: tokenQuota,
    expired_time: -1,
    unlimited_quota: false,
  });
  return { apiKey: `sk-${token.key}`, userId: root.id, tokenName: 'outage', userQuota, tokenQuota };
}

type Phase = 'before' | 'outage' | 'after';

/** Runs CLIENTS clients until `isStopped()`, each request's outcome kept with the phase it started in. */
function runLoad(gateway: GatewayChild, apiKey: string, phaseOf: () => Phase, isStopped: () => boolean) {
  const streamsDone = new Set<string>();
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
    timeout: CLIENT_TIMEOUT_MS,
    fetch: watchingFetch,
  });
  const complete: string[] = [];
  /** JSON answers that failed because their charge could not be recorded: the client got none of them */
  const withheld: string[] = [];
  const failures: Record<Phase, number> = { before: 0, outage: 0, after: 0 };
  const requests: Record<Phase, number> = { before: 0, outage: 0, after: 0 };
  const messages = new Set<string>();
  let hangs = 0;
  const statuses = new Set<number>();
  const runClient = async (index: number) => {
    for (let turn = 0; !isStopped(); turn += 1) {
      const phase = phaseOf();
      requests[phase] += 1;
      const content = [{ role: 'user' as const, content: `client ${index} turn ${turn}` }];
      const isJson = (index + turn) % 2 === 0;
      try {
        if (isJson) {
          const { data, response } = await client.chat.completions
            .create({ model: MODEL, messages: content, max_tokens: 32 })
            .withResponse();
          if (data.choices[0]?.message.content) complete.push(response.headers.get('x-request-id') ?? '');
        } else {
          const { data: stream, response } = await client.chat.completions
            .create({ model: MODEL, messages: content, max_tokens: 32, stream: true })
            .withResponse();
          for await (const chunk of stream) void chunk;
          const id = response.headers.get('x-request-id') ?? '';
          if (streamsDone.has(id)) complete.push(id);
        }
      } catch (error) {
        // Counted in the phase it failed in: a request under way when the database stopped fails with it.
        failures[phaseOf()] += 1;
        if (error instanceof OpenAI.APIConnectionTimeoutError) hangs += 1;
        if (error instanceof OpenAI.APIError && error.status !== undefined) statuses.add(error.status);
        if (isJson && error instanceof OpenAI.APIError && error.code === 'settlement_failed') {
          withheld.push(error.headers?.get('x-request-id') ?? '');
        }
        messages.add(String(error).slice(0, 160));
        // An outage answers at once: do not spin.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  };
  const done = Promise.all(Array.from({ length: CLIENTS }, (_, index) => runClient(index)));
  return done.then(() => ({
    complete,
    withheld,
    failures,
    requests,
    hangs,
    statuses: [...statuses],
    messages: [...messages].slice(0, 6),
  }));
}

async function ledgerOf(db: Db, userId: number, tokenName: string) {
  const user = await db
    .selectFrom('users')
    .select(['quota', 'used_quota'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const token = await db
    .selectFrom('tokens')
    .select(['remain_quota', 'used_quota'])
    .where('name', '=', tokenName)
    .executeTakeFirstOrThrow();
  const logs = await db
    .selectFrom('logs')
    .select(['request_id', 'quota', 'content'])
    .where('type', '=', LogType.consume)
    .where('user_id', '=', userId)
    .execute();
  const reservations = await db.selectFrom('quota_reservations').select('id').execute();
  return {
    user: { quota: Number(user.quota), used: Number(user.used_quota) },
    token: { quota: Number(token.remain_quota), used: Number(token.used_quota) },
    logs: logs.map((log) => ({ ...log, quota: Number(log.quota) })),
    reservationsLeft: reservations.length,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until the running server has settled or refunded every reservation, or `ms` passed. */
async function waitForNoReservations(db: Db, ms: number): Promise<string[]> {
  for (let waited = 0; ; waited += 250) {
    const left = await db.selectFrom('quota_reservations').select('id').execute();
    if (left.length === 0 || waited >= ms) return left.map((row) => row.id);
    await sleep(250);
  }
}

/** Load, the database stopped hard for 3 s and started again, then the checks every database must pass. */
async function outage(server: PrivateDatabaseServer) {
  const config = loadConfig({ SQL_DSN: server.dsn, SQLITE_PATH: '', SESSION_SECRET: 'outage-test' });
  // The schema is made and written to the database's own files (a clean restart) before the load, as on any
  // server that has run a while. The one failure seen here (under CI load) was MariaDB, after the kill, calling
  // a table created seconds before it corrupted: recovering fresh DDL is not what this test is about.
  const schema = await createDatabase(config);
  await migrateToLatest(schema);
  await schema.destroy();
  await server.restartCleanly();
  const database = { sqlDsn: server.dsn, sqlitePath: '' };
  const gateway = await startGatewayChild(bundle, database);
  cleanups.push(() => gateway.kill());
  const provisioned = await provision(gateway);
  let phase: Phase = 'before';
  let isStopped = false;
  const load = runLoad(
    gateway,
    provisioned.apiKey,
    () => phase,
    () => isStopped,
  );
  await sleep(1_500);
  phase = 'outage';
  server.stopNow();
  await sleep(3_000);
  await server.start();
  phase = 'after';
  // Back: new requests find the database again (the pool reconnects) and queued settlements commit.
  await sleep(4_000);
  isStopped = true;
  const result = await load;
  const db = await createDatabase(config);
  cleanups.push(() => db.destroy());
  // The server that lived through the outage writes what it owes by itself (settlements and refunds retried
  // every second), without waiting for a restart or a lease to run out.
  const leftWhileRunning = await waitForNoReservations(db, 10_000);
  // The graceful stop writes whatever is still queued; the next start recovers what the outage left.
  const exitCode = await gateway.stop();
  const restarted = await startGatewayChild(bundle, database);
  cleanups.push(() => restarted.kill());
  const after = await ledgerOf(db, provisioned.userId, provisioned.tokenName);
  await restarted.stop();

  const billed = after.logs.filter((log) => log.quota > 0);
  const released = after.logs.filter((log) => log.content.startsWith(RELEASE_NOTE));
  const logSum = after.logs.reduce((sum, log) => sum + log.quota, 0);
  const billedIds = billed.map((log) => log.request_id);
  const billedSet = new Set(billedIds);
  const summary = {
    requests: result.requests,
    failures: result.failures,
    hangs: result.hangs,
    statuses: result.statuses,
    complete: result.complete.length,
    withheld: result.withheld.length,
    billed: billed.length,
    billedNotComplete: billed.length - result.complete.filter((id) => billedSet.has(id)).length,
    released: released.length,
    leftWhileRunning: leftWhileRunning.length,
    logSum,
    userDrop: provisioned.userQuota - after.user.quota,
    keyDrop: provisioned.tokenQuota - after.token.quota,
    exitCode,
    messages: result.messages,
  };
  console.info(`${server.name} stopped mid-run:`, summary);
  const isSuspect =
    result.hangs > 0 ||
    after.reservationsLeft > 0 ||
    exitCode !== 0 ||
    leftWhileRunning.length > 0 ||
    result.statuses.some((status) => status !== 503);
  if (isSuspect) console.info(gateway.output().slice(-3000));

  expect(result.failures.before).toBe(0);
  // The outage was seen (errors), answered (no hang), and over (answers again afterwards).
  expect(result.failures.outage).toBeGreaterThan(0);
  expect(result.hangs).toBe(0);
  // Error answers say the database is away (503), not an unexplained 500.
  expect(result.statuses.filter((status) => status !== 503)).toEqual([]);
  expect(result.failures.after).toBeLessThan(result.requests.after / 2);
  // The server lived through it: its graceful stop still ran (exit 0).
  expect(exitCode).toBe(0);
  expect(result.complete.length).toBeGreaterThan(10);
  expect(leftWhileRunning).toEqual([]);
  expect(after.reservationsLeft).toBe(0);
  expect(provisioned.userQuota - after.user.quota).toBe(logSum);
  expect(after.user.used).toBe(logSum);
  expect(provisioned.tokenQuota - after.token.quota).toBe(logSum);
  expect(after.token.used).toBe(logSum);
  expect(billedSet.size).toBe(billedIds.length);
  expect(result.complete.filter((id) => !billedSet.has(id))).toEqual([]);
  // A JSON answer the client never got is not charged.
  expect(result.withheld.filter((id) => billedSet.has(id))).toEqual([]);
}

/** The outage on `server`; when a check fails, the database server's own log says what it went through. */
async function outageTold(server: PrivateDatabaseServer) {
  try {
    await outage(server);
  } catch (error) {
    console.info(`${server.name}'s own log, its end:\n${server.logTail()}`);
    throw error;
  }
}

describe('the ledger when its database goes away mid-run', () => {
  it.skipIf(whyNoPostgres !== null)(
    'PostgreSQL: answers errors during the outage, bills nothing twice and loses nothing once it is back',
    async () => {
      const server = await createPrivatePostgres();
      cleanups.push(() => server.remove());
      await outageTold(server);
    },
    240_000,
  );

  it.skipIf(whyNoMariadb !== null)(
    'MariaDB: answers errors during the outage, bills nothing twice and loses nothing once it is back',
    async () => {
      const server = await createPrivateMariadb();
      cleanups.push(() => server.remove());
      await outageTold(server);
    },
    240_000,
  );
});
