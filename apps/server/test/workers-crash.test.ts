import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { LogType } from '@gatehouse/shared';
import { RELEASE_NOTE } from '../src/billing/reservation-recovery';
import { bundleGateway } from './support/gateway-child';
import { startOpenAIUpstream } from './support/openai-upstream';
import {
  askChat,
  seedUserWithKey,
  sendChat,
  startGatewayWithChannel,
  temporarySqlite,
  waitUntil,
} from './support/gateway-fleet';
import { settledLedger } from './support/ledger';

/**
 * WORKERS=2 on one SQLite file: `kill -9` of one worker under streaming and JSON load. The primary starts it
 * again; what the dead worker had reserved is released as soon as the new one starts (not at the next sweep
 * up to 30 s later), and the ledger adds up, every answer received whole billed once.
 */
const CLIENTS = 12;
const cleanups: Array<() => Promise<void> | void> = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('kill -9 of a worker under load (WORKERS=2, SQLite)', () => {
  it('is started again, its reservations released at once, the ledger exact', async () => {
    const upstream = await startOpenAIUpstream('workers-crash', {
      delayMs: 20,
      chunkDelayMs: 15,
      words: ['One', ' two', ' three', ' four'],
      usage: { prompt: 10, completion: 5 },
    });
    cleanups.push(() => upstream.close());
    const database = temporarySqlite('workers-crash', cleanups);
    const { gateway, db } = await startGatewayWithChannel(
      await bundleGateway(),
      database,
      { WORKERS: '2' },
      { name: 'workers crash upstream', upstreamUrl: upstream.url },
      cleanups,
    );
    const seeded = await seedUserWithKey(db);
    await waitUntil('both workers serve the channel', 10_000, async () => {
      const answers = await Promise.all(Array.from({ length: 4 }, () => askChat(gateway.url, seeded.key)));
      return answers.every((answer) => answer.status === 200);
    });
    const workerPids = () =>
      execFileSync('ps', ['-o', 'pid=', '--ppid', String(gateway.process.pid)], { encoding: 'utf8' })
        .split('\n')
        .map((line) => Number(line.trim()))
        .filter((pid) => pid > 0)
        .sort((left, right) => left - right);

    /** request ids of the answers received whole */
    const whole: string[] = [];
    let isStopped = false;
    const client = async (index: number) => {
      for (let turn = 0; !isStopped; turn += 1) {
        const stream = (index + turn) % 2 === 1;
        // A connection the primary was handing to the worker as it died is never answered (Node's cluster):
        // such a request is given up on, as a client with a timeout would.
        const answer = await Promise.race([
          sendChat(gateway.url, seeded.key, stream).catch(() => null),
          new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000)),
        ]);
        const isWhole =
          answer !== null && answer.status === 200 && (!stream || answer.text.endsWith('data: [DONE]\n\n'));
        if (isWhole) whole.push(String(answer.headers['x-request-id']));
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_, index) => client(index));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const [lead, victim] = workerPids();
    process.kill(victim, 'SIGKILL');
    const killedAt = Date.now();
    await waitUntil('the primary starts the worker again', 10_000, () => {
      const pids = workerPids();
      return pids.length === 2 && pids.includes(lead) && !pids.includes(victim);
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    isStopped = true;
    await Promise.all(clients);

    const released = async () =>
      (await db.selectFrom('quota_reservations').select('node_id').execute()).filter((row) =>
        row.node_id.includes(`/${victim}/`),
      ).length === 0;
    // The sweep of every instance, every 30 s, would release them too, only later.
    const releasedAfterMs = await waitUntil('the dead worker’s reservations are released', 15_000, released);
    expect(Date.now() - killedAt).toBeLessThan(8000);
    console.info(`kill -9 of a worker: ${whole.length} answers whole, released ${releasedAfterMs} ms later`);

    expect(await gateway.stop()).toBe(0);
    await settledLedger(db, seeded);
    const logs = await db
      .selectFrom('logs')
      .select(['request_id', 'quota', 'content'])
      .where('type', '=', LogType.consume)
      .where('user_id', '=', seeded.userId)
      .execute();
    expect(logs.filter((log) => log.content.startsWith(RELEASE_NOTE)).length).toBeGreaterThan(0);
    const billed = logs.filter((log) => Number(log.quota) > 0).map((log) => log.request_id);
    expect(new Set(billed).size).toBe(billed.length);
    const billedIds = new Set(billed);
    expect(whole.length).toBeGreaterThan(20);
    expect(whole.filter((id) => !billedIds.has(id))).toEqual([]);
  }, 60_000);
});
