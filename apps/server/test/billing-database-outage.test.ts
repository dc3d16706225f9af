import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
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
import { bundleGateway, startGatewayChild, type GatewayChild } from './support/gateway-child';

/**
 * The database going away under load: a private PostgreSQL cluster (never the machine's shared one), the real
 * server in a child process on it, streaming and JSON clients through the openai SDK, then the cluster stopped
 * hard (`pg_ctl stop -m immediate`) mid-run and started again. Requests during the outage get an error answer
 * (never a hang); once the database is back, every answer a client received whole is billed exactly once,
 * the balances, the key and the logs agree, and no reservation is left once the server has recovered.
 */
const PG_BIN = '/usr/lib/postgresql/15/bin';
const hasPostgres = existsSync(path.join(PG_BIN, 'initdb')) && existsSync(path.join(PG_BIN, 'pg_ctl'));
const CLIENTS = 16;
const MODEL = 'gpt-4o-mini';
/** A request that takes longer than this is a hang: the SDK's own timeout turns it into a failure we see. */
const CLIENT_TIMEOUT_MS = 30_000;

let upstream: OpenAIUpstream;
let bundle: string;
let cluster: { dir: string; port: number; dsn: string } | null = null;
const cleanups: Array<() => Promise<void> | void> = [];

function asPostgres(command: string, args: string[]): string {
  return execFileSync('runuser', ['-u', 'postgres', '--', path.join(PG_BIN, command), ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
}

async function findFreePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

function startCluster(): void {
  const { dir, port } = cluster!;
  asPostgres('pg_ctl', [
    '-D',
    path.join(dir, 'data'),
    '-l',
    path.join(dir, 'server.log'),
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=on`,
    '-w',
    'start',
  ]);
}

function stopClusterNow(): void {
  asPostgres('pg_ctl', ['-D', path.join(cluster!.dir, 'data'), '-m', 'immediate', '-w', 'stop']);
}

beforeAll(async () => {
  if (!hasPostgres) return;
  const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-outage-'));
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  chownSync(dir, uid, gid);
  const port = await findFreePort();
  cluster = { dir, port, dsn: `postgres://postgres@127.0.0.1:${port}/postgres` };
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  asPostgres('initdb', ['-D', path.join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync']);
  startCluster();
  cleanups.push(() => {
    try {
      stopClusterNow();
    } catch {
      // stopped already
    }
  });
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
      try {
        if ((index + turn) % 2 === 0) {
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
        messages.add(String(error).slice(0, 160));
        // An outage answers at once: do not spin.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  };
  const done = Promise.all(Array.from({ length: CLIENTS }, (_, index) => runClient(index)));
  return done.then(() => ({
    complete,
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

describe('the ledger when PostgreSQL goes away mid-run', () => {
  it.skipIf(!hasPostgres)(
    'answers errors during the outage, bills nothing twice and loses nothing once it is back',
    async () => {
      const database = { sqlDsn: cluster!.dsn, sqlitePath: '' };
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
      stopClusterNow();
      await sleep(3_000);
      startCluster();
      phase = 'after';
      // Back: new requests find the database again (the pool reconnects) and queued settlements commit.
      await sleep(4_000);
      isStopped = true;
      const result = await load;
      // The graceful stop writes whatever is still queued; the next start recovers what the outage left.
      const exitCode = await gateway.stop();
      const restarted = await startGatewayChild(bundle, database);
      cleanups.push(() => restarted.kill());
      const db = await createDatabase(
        loadConfig({ SQL_DSN: cluster!.dsn, SQLITE_PATH: '', SESSION_SECRET: 'outage-test' }),
      );
      cleanups.push(() => db.destroy());
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
        billed: billed.length,
        billedNotComplete: billed.length - result.complete.filter((id) => billedSet.has(id)).length,
        released: released.length,
        logSum,
        userDrop: provisioned.userQuota - after.user.quota,
        keyDrop: provisioned.tokenQuota - after.token.quota,
        exitCode,
        messages: result.messages,
      };
      console.info('PostgreSQL stopped mid-run:', summary);
      if (result.hangs > 0 || after.reservationsLeft > 0 || exitCode !== 0)
        console.info(gateway.output().slice(-3000));

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
      expect(after.reservationsLeft).toBe(0);
      expect(provisioned.userQuota - after.user.quota).toBe(logSum);
      expect(after.user.used).toBe(logSum);
      expect(provisioned.tokenQuota - after.token.quota).toBe(logSum);
      expect(after.token.used).toBe(logSum);
      expect(billedSet.size).toBe(billedIds.length);
      expect(result.complete.filter((id) => !billedSet.has(id))).toEqual([]);
    },
    240_000,
  );
});
