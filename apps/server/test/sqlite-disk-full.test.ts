import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleGateway } from './support/gateway-child';
import { startOpenAIUpstream } from './support/openai-upstream';
import {
  askChat,
  seedUserWithKey,
  sendChat,
  startGatewayWithChannel,
  waitUntil,
} from './support/gateway-fleet';
import { settledLedger } from './support/ledger';

/**
 * The SQLite file's disk fills up under relay load (a 16 MB tmpfs, filled with `dd`), then gets space back: the
 * real server answers 503 (never a bare 500), delivers no answer it could not bill, keeps serving, and once
 * there is room again serves and settles by itself, the ledger adding up. Mounting needs root: skipped without.
 */
const cleanups: Array<() => Promise<void> | void> = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A small tmpfs of its own, or null where this process may not mount one. */
function mountSmallDisk(): string | null {
  if (process.getuid?.() !== 0) return null;
  const folder = mkdtempSync(path.join(tmpdir(), 'gatehouse-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', folder], { stdio: 'ignore' });
  } catch {
    rmSync(folder, { recursive: true, force: true });
    return null;
  }
  cleanups.push(() => {
    execFileSync('umount', ['-l', folder]);
    rmSync(folder, { recursive: true, force: true });
  });
  return folder;
}

describe('the SQLite disk full under load', () => {
  // The relay's transactions on the main connection, and in the write thread.
  for (const writeThread of ['off', 'on']) {
    it(`answers 503, bills every answer it delivers, and recovers by itself once there is room (SQLITE_WRITE_THREAD=${writeThread})`, async (context) => {
      const disk = mountSmallDisk();
      if (disk === null) context.skip();
      const upstream = await startOpenAIUpstream('disk', {
        delayMs: 10,
        chunkDelayMs: 5,
        words: ['One', ' two', ' three'],
        usage: { prompt: 10, completion: 5 },
      });
      cleanups.push(() => upstream.close());
      const database = { sqlDsn: '', sqlitePath: path.join(disk!, 'gatehouse.db') };
      const { gateway, db } = await startGatewayWithChannel(
        await bundleGateway(),
        database,
        { SQLITE_WRITE_THREAD: writeThread },
        { name: 'disk upstream', upstreamUrl: upstream.url },
        cleanups,
      );
      const seeded = await seedUserWithKey(db);
      await waitUntil(
        'the channel is served',
        5000,
        async () => (await askChat(gateway.url, seeded.key)).status === 200,
      );

      let phase: 'before' | 'full' | 'freed' = 'before';
      let isStopped = false;
      const outcomes = {
        before: new Map<string, number>(),
        full: new Map<string, number>(),
        freed: new Map<string, number>(),
      };
      /** request ids of the answers received whole */
      const whole: string[] = [];
      const client = async (index: number) => {
        for (let turn = 0; !isStopped; turn += 1) {
          const stream = (index + turn) % 2 === 1;
          const at = phase;
          const answer = await sendChat(gateway.url, seeded.key, stream).catch(() => null);
          let outcome: string;
          if (answer === null) outcome = 'stream cut';
          else if (answer.status !== 200)
            outcome = `${answer.status} ${(JSON.parse(answer.text) as { error: { code: string } }).error.code}`;
          else if (stream && !answer.text.endsWith('data: [DONE]\n\n')) outcome = 'stream cut';
          else {
            outcome = 'whole';
            whole.push(String(answer.headers['x-request-id']));
          }
          outcomes[at].set(outcome, (outcomes[at].get(outcome) ?? 0) + 1);
        }
      };
      const clients = Array.from({ length: 6 }, (_, index) => client(index));
      await new Promise((resolve) => setTimeout(resolve, 1000));
      phase = 'full';
      try {
        execFileSync('dd', ['if=/dev/zero', `of=${disk}/filler`, 'bs=64k'], { stdio: 'ignore' });
      } catch {
        // dd stops with an error once the disk is full: that is the point
      }
      await new Promise((resolve) => setTimeout(resolve, 3000));
      rmSync(`${disk}/filler`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      // From here every request was sent with room on the disk again.
      phase = 'freed';
      await new Promise((resolve) => setTimeout(resolve, 1500));
      isStopped = true;
      await Promise.all(clients);
      const seen = Object.fromEntries(
        Object.entries(outcomes).map(([at, counts]) => [at, Object.fromEntries(counts)]),
      );
      console.info(`SQLite disk full under load (SQLITE_WRITE_THREAD=${writeThread}):`, seen);

      expect([...outcomes.before.keys()]).toEqual(['whole']);
      // A full disk is the database unable to write: "try again", never an internal error.
      expect(
        [...outcomes.full.keys()].filter(
          (outcome) => !/^(whole|stream cut|503 (database_unavailable|settlement_failed))$/.test(outcome),
        ),
      ).toEqual([]);
      expect(outcomes.full.get('503 database_unavailable')).toBeGreaterThan(0);
      expect([...outcomes.freed.keys()]).toEqual(['whole']);

      expect(await gateway.stop()).toBe(0);
      await settledLedger(db, seeded);
      const billed = await db.selectFrom('logs').select('request_id').where('quota', '>', 0).execute();
      const billedIds = new Set(billed.map((log) => log.request_id));
      expect(whole.filter((id) => !billedIds.has(id))).toEqual([]);
    }, 60_000);
  }
});
