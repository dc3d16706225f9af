import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelType, UserStatus } from '@gatehouse/shared';
import type { Db } from '../src/db/database';
import { bundleGateway, startGatewayChild, type GatewayChild } from './support/gateway-child';
import { startCountingUpstream, type CountingUpstream } from './support/counting-upstream';
import { externalDatabaseServers, isListening } from './support/external-databases';
import {
  ROOT_ACCESS_TOKEN,
  askChat,
  awayFromMinuteEnd,
  callApi,
  openDatabase,
  seedUserWithKey,
  processOf,
  send,
  waitUntil,
} from './support/gateway-fleet';
import { readLedger } from './support/ledger';

/**
 * Two real gateway nodes on one PostgreSQL (and on one MySQL) with one Redis; on PostgreSQL node B runs two
 * workers (WORKERS=2, three processes in all; on one database only, to keep the file's time down). Limits hold
 * across them exactly, the ledger stays exact, and what one node changes (a channel, an option, a key, a user)
 * the other sees within a second, with the full reload (SYNC_FREQUENCY) an hour away. The promise is 1 s; the
 * assertion allows 5 s because this machine's two cores are shared with other test runs (load averages near 20
 * were seen), where each check's own requests take hundreds of milliseconds; an hour-long reload still fails it
 * by far. The measured times are printed. Skipped for a server the machine does not run.
 */
const PROMISE_MS = 1000;
const DEADLINE_MS = 5000;
const ROOT_KEY = `sk-tworoot${process.pid}`;

const isRedisUp = await isListening(6379);
let bundle: string;
beforeAll(async () => {
  bundle = await bundleGateway();
}, 60_000);

for (const [index, server] of externalDatabaseServers.entries()) {
  const isReachable = isRedisUp && (await isListening(server.port));
  describe.skipIf(!isReachable)(`two gateway processes on ${server.name} and Redis`, () => {
    const cleanups: Array<() => Promise<unknown>> = [];
    const seen: Record<string, number> = {};
    let first: GatewayChild;
    let second: GatewayChild;
    let upstream: CountingUpstream;
    let db: Db;
    let channelId: number;
    afterAll(async () => {
      for (const cleanup of cleanups) await cleanup();
      console.info(`${server.name}: seen by the other node after (ms)`, seen);
    });

    const within = async (what: string, check: () => Promise<boolean>) => {
      seen[what] = await waitUntil(`${what}, on the other node`, DEADLINE_MS, check);
    };
    /** Statuses of four requests to B on new connections, which its workers take in turn. */
    const statusesOnB = async (key: string) =>
      (await Promise.all(Array.from({ length: 4 }, () => askChat(second.url, key)))).map(
        (answer) => answer.status,
      );
    const allOnB = async (key: string, status: number) =>
      (await statusesOnB(key)).every((answered) => answered === status);

    it('starts node A (master) and node B (slave) on one database and one Redis', async () => {
      const database = await server.create('gatehouse_nodes');
      cleanups.push(database.drop);
      const location = { sqlDsn: database.dsn, sqlitePath: '' };
      upstream = await startCountingUpstream();
      cleanups.unshift(() => upstream.close());
      const env = {
        REDIS_CONN_STRING: 'redis://127.0.0.1:6379',
        // A prefix of this run's own: nothing to empty first, and no other run's counters to meet.
        REDIS_KEY_PREFIX: `gatehouse-test-${process.pid}-${index}:`,
        SYNC_FREQUENCY: '3600',
        INITIAL_ROOT_ACCESS_TOKEN: ROOT_ACCESS_TOKEN,
        INITIAL_ROOT_TOKEN: ROOT_KEY,
      };
      first = await startGatewayChild(bundle, location, env);
      cleanups.unshift(() => first.kill());
      const workers = index === 0 ? 2 : 1;
      second = await startGatewayChild(bundle, location, {
        ...env,
        NODE_TYPE: 'slave',
        WORKERS: String(workers),
      });
      cleanups.unshift(() => second.kill());
      // B's lead answers first; a second worker starts once the lead listens.
      await waitUntil('every worker of B answering', 60_000, async () => {
        const answers = await Promise.all(Array.from({ length: 4 }, () => send(`${second.url}/api/status`)));
        return new Set(answers.map((answer) => processOf(answer.headers))).size === workers;
      });
      db = await openDatabase(location);
      cleanups.unshift(() => db.destroy());
    }, 90_000);

    it('a channel created on A answers on B', async () => {
      expect(await statusesOnB(ROOT_KEY)).toEqual([503, 503, 503, 503]);
      const created = await callApi(first.url, 'POST', '/api/channel/', {
        type: ChannelType.openai,
        name: 'shared upstream',
        key: 'sk-upstream',
        base_url: upstream.url,
        models: 'gpt-4o',
        group: 'default',
      });
      expect(created).toMatchObject({ success: true });
      [channelId] = (created.data as { ids: number[] }).ids;
      await within('channel created', () => allOnB(ROOT_KEY, 200));
    });

    it('an option set on A is read by B', async () => {
      const name = `Nodes ${index} ${Date.now()}`;
      expect(
        await callApi(first.url, 'PUT', '/api/option/', { key: 'SystemName', value: name }),
      ).toMatchObject({ success: true });
      await within('option', async () => {
        const answers = await Promise.all(Array.from({ length: 4 }, () => send(`${second.url}/api/status`)));
        return answers.every(
          (answer) =>
            (JSON.parse(answer.text) as { data: { system_name: string } }).data.system_name === name,
        );
      });
    });

    it('admits exactly 10 of 40 parallel requests spread over both under RPM 10, and the ledger stays exact', async () => {
      const seeded = await seedUserWithKey(db, { tokenRpm: 10 });
      await awayFromMinuteEnd();
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, n) => askChat(n % 2 === 0 ? first.url : second.url, seeded.key)),
      );
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(10);
      expect(answers.filter((answer) => answer.status === 429)).toHaveLength(30);
      // Each node writes its settlements within a second; then user, key and logs agree to the unit.
      // (10 + 10 × 4) × 1.25 = 62.5 → 63 for each admitted request.
      const expected = { userUsed: 630, tokenUsed: 630, logged: 630, logs: 10 };
      await waitUntil('the settled ledger', 10_000, async () => {
        const ledger = await readLedger(db, seeded.userId, seeded.tokenId);
        return ledger.logs === 10 && ledger.userUsed === 630 && ledger.tokenUsed === 630;
      });
      expect(await readLedger(db, seeded.userId, seeded.tokenId)).toEqual(expected);
    });

    it('never holds more than max_parallel_requests of a user at the upstream across both', async () => {
      const limited = await seedUserWithKey(db, { userMaxParallel: 3 });
      upstream.setDelay(300);
      const before = upstream.served();
      const answers = await Promise.all(
        Array.from({ length: 24 }, (_, n) => askChat(n % 2 === 0 ? first.url : second.url, limited.key)),
      );
      upstream.setDelay(0);
      const admitted = answers.filter((answer) => answer.status === 200).length;
      expect(upstream.maxInFlight()).toBeLessThanOrEqual(3);
      expect(admitted).toBeGreaterThanOrEqual(1);
      expect(upstream.served() - before).toBe(admitted);
    });

    it('a key disabled on A and a user disabled on A are refused by B', async () => {
      const rootKey = await db
        .selectFrom('tokens')
        .select('id')
        .where('key', '=', ROOT_KEY.slice(3))
        .executeTakeFirstOrThrow();
      const other = await seedUserWithKey(db);
      // B has both keys in its cache before the changes.
      expect(await statusesOnB(ROOT_KEY)).toEqual([200, 200, 200, 200]);
      expect(await statusesOnB(other.key)).toEqual([200, 200, 200, 200]);
      expect(
        await callApi(first.url, 'PUT', '/api/token/?status_only=true', { id: rootKey.id, status: 2 }),
      ).toMatchObject({ success: true });
      await within('key disabled', () => allOnB(ROOT_KEY, 401));
      expect(
        await callApi(first.url, 'POST', '/api/user/manage', { username: other.username, action: 'disable' }),
      ).toMatchObject({ success: true, data: { status: UserStatus.disabled } });
      await within('user disabled', () => allOnB(other.key, 403));
    });

    it('a channel disabled on A is no longer used by B', async () => {
      const user = await seedUserWithKey(db);
      expect(await statusesOnB(user.key)).toEqual([200, 200, 200, 200]);
      expect(await callApi(first.url, 'PUT', '/api/channel/', { id: channelId, status: 2 })).toMatchObject({
        success: true,
      });
      await within('channel disabled', () => allOnB(user.key, 503));
      const served = upstream.served();
      expect(await statusesOnB(user.key)).toEqual([503, 503, 503, 503]);
      expect(upstream.served()).toBe(served);
    });

    it('both stop cleanly on SIGTERM', async () => {
      expect(await second.stop()).toBe(0);
      expect(await first.stop()).toBe(0);
      // Printed for the record (see the comment at the top); the deadline above is what is asserted.
      for (const [what, ms] of Object.entries(seen)) {
        if (ms > PROMISE_MS) console.warn(`${server.name}: ${what} took ${ms} ms (promised ${PROMISE_MS})`);
      }
    });
  });
}
