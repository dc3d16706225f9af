import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelType } from '@gatehouse/shared';
import type { Db } from '../src/db/database';
import { bundleGateway, startGatewayChild, type GatewayChild } from './support/gateway-child';
import { startCountingUpstream, type CountingUpstream } from './support/counting-upstream';
import {
  ROOT_ACCESS_TOKEN,
  askChat,
  awayFromMinuteEnd,
  callApi,
  openDatabase,
  processOf,
  send,
  seedUserWithKey,
  type SeededKey,
} from './support/gateway-fleet';
import { readLedger } from './support/ledger';

/**
 * WORKERS=3 on one SQLite file and no Redis: the real bundle under node:cluster. The limits are kept by the
 * primary for all workers, so they hold as in one process; the ledger stays exact across processes writing one
 * SQLite file; a killed worker is started again; SIGTERM stops them all cleanly.
 */
const folder = mkdtempSync(path.join(tmpdir(), 'gatehouse-workers-'));
const database = { sqlDsn: '', sqlitePath: path.join(folder, 'workers.db') };
let gateway: GatewayChild;
let upstream: CountingUpstream;
let db: Db;

const workerPids = (): number[] =>
  execFileSync('ps', ['-o', 'pid=', '--ppid', String(gateway.process.pid)], { encoding: 'utf8' })
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((pid) => pid > 0);

/** Until `count` different processes answered /api/status (request ids start with a per-process prefix). */
async function waitForListeners(count: number): Promise<void> {
  const seen = new Set<string>();
  const deadline = Date.now() + 60_000;
  while (seen.size < count) {
    if (Date.now() > deadline)
      throw new Error(`only ${seen.size} of ${count} workers answer: ${gateway.output()}`);
    const answers = await Promise.all(Array.from({ length: 6 }, () => send(`${gateway.url}/api/status`)));
    for (const answer of answers) seen.add(processOf(answer.headers));
    if (seen.size < count) await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  upstream = await startCountingUpstream();
  gateway = await startGatewayChild(await bundleGateway(), database, {
    WORKERS: '3',
    INITIAL_ROOT_ACCESS_TOKEN: ROOT_ACCESS_TOKEN,
  });
  db = await openDatabase(database);
  // The lead answers first; the other two start once it has migrated the database.
  await waitForListeners(3);
}, 120_000);

afterAll(async () => {
  await gateway?.kill();
  await db?.destroy();
  await upstream?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('WORKERS=3 on SQLite without Redis', () => {
  let seeded: SeededKey;

  it('runs three workers on one port, which all serve a channel created through one of them', async () => {
    expect(workerPids()).toHaveLength(3);
    const created = await callApi(gateway.url, 'POST', '/api/channel/', {
      type: ChannelType.openai,
      name: 'workers upstream',
      key: 'sk-upstream',
      base_url: upstream.url,
      models: 'gpt-4o',
      group: 'default',
    });
    expect(created).toMatchObject({ success: true });
    const warm = await seedUserWithKey(db);
    // Each worker must know the channel (through the change feed) before the counted burst.
    const deadline = Date.now() + 10_000;
    let answers: Array<{ status: number; process: string }> = [];
    do {
      answers = await Promise.all(Array.from({ length: 9 }, () => askChat(gateway.url, warm.key)));
    } while (answers.some((answer) => answer.status !== 200) && Date.now() < deadline);
    expect(answers.map((answer) => answer.status)).toEqual(Array(9).fill(200));
    expect(new Set(answers.map((answer) => answer.process)).size).toBe(3);
  });

  it('admits exactly 10 of 40 parallel requests under RPM 10, whichever worker takes them', async () => {
    seeded = await seedUserWithKey(db, { tokenRpm: 10 });
    await awayFromMinuteEnd();
    const answers = await Promise.all(Array.from({ length: 40 }, () => askChat(gateway.url, seeded.key)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(10);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(30);
    expect(new Set(answers.map((answer) => answer.process)).size).toBeGreaterThan(1);
  });

  it('never holds more than max_parallel_requests of a user at the upstream', async () => {
    const limited = await seedUserWithKey(db, { userMaxParallel: 3 });
    upstream.setDelay(300);
    const before = upstream.served();
    const answers = await Promise.all(Array.from({ length: 24 }, () => askChat(gateway.url, limited.key)));
    upstream.setDelay(0);
    const admitted = answers.filter((answer) => answer.status === 200).length;
    expect(upstream.maxInFlight()).toBeLessThanOrEqual(3);
    expect(admitted).toBeGreaterThanOrEqual(1);
    expect(admitted).toBeLessThanOrEqual(3);
    expect(upstream.served() - before).toBe(admitted);
  });

  it('starts a killed worker again and keeps serving', async () => {
    const [victim] = workerPids();
    process.kill(victim, 'SIGKILL');
    const deadline = Date.now() + 20_000;
    const isRestarted = () => {
      const pids = workerPids();
      return pids.length === 3 && !pids.includes(victim);
    };
    while (!isRestarted() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // Three processes answer again (a replacement counts once it listens), and the killed one is not among them.
    await waitForListeners(3);
    expect(isRestarted()).toBe(true);
    const again = await seedUserWithKey(db);
    const answers = await Promise.all(Array.from({ length: 6 }, () => askChat(gateway.url, again.key)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(200));
  });

  it('stops every worker on SIGTERM, with the ledger exact', async () => {
    const pids = workerPids();
    expect(await gateway.stop()).toBe(0);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
    const ledger = await readLedger(db, seeded.userId, seeded.tokenId);
    // (10 + 10 × 4) × 1.25 = 62.5 → 63 for each of the 10 admitted requests.
    expect(ledger).toEqual({ userUsed: 630, tokenUsed: 630, logged: 630, logs: 10 });
  });
});

describe('WORKERS=2 when the lead worker cannot start', () => {
  it("stops the whole server with the worker's error instead of starting it again and again", async () => {
    const refused = { sqlDsn: 'postgres://nobody@127.0.0.1:9/none', sqlitePath: '' };
    const failure = await startGatewayChild(await bundleGateway(), refused, { WORKERS: '2' }).then(
      () => null,
      (error: unknown) => String(error),
    );
    expect(failure).toMatch(/the gateway exited \(1\)/);
    expect(failure).toMatch(/worker 1 stopped before it listened/);
  }, 60_000);
});
