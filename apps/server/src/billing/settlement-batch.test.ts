import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LogType } from '@gatehouse/shared';
import { loadConfig } from '../config/config';
import { closeContext, createContext } from '../context';
import type { Db } from '../db/database';
import { externalDatabaseServers, isListening } from '../../test/support/external-databases';
import { seedQuotaHolder, silentLog } from '../../test/support/quota-holder';
import { startSqliteWriteThread } from '../../test/support/sqlite-write-thread';
import type { QuotaHolder } from './quota-reservation';
import { reserveQuotaBatch } from './reserve-quota-batch';
import { SettlementLedger, type QuotaCrossing } from './settlement-ledger';

/**
 * A batch of 70 requests (statements of 64, 4 and 2 rows), from two holders, some without a log row and one
 * whose log row has its columns in another order, with failures in the same batch: on SQLite, PostgreSQL and
 * MySQL, everything reserved is settled once and the logs, rollups and balances agree.
 */
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function settleSeventy(db: Db): Promise<void> {
  const holders = [
    await seedQuotaHolder(db, { quota: 100_000 }),
    await seedQuotaHolder(db, { quota: 100_000 }),
  ];
  const requests = Array.from({ length: 70 }, (_, index) => ({
    id: `req-${index}`,
    holder: holders[index % 2],
    reserved: 100 + index,
    cost: 50 + 3 * index,
    hasLog: index % 10 !== 9,
  }));
  const shortfalls = await reserveQuotaBatch(
    db,
    requests.map(({ id, holder, reserved }) => ({
      holder,
      amount: reserved,
      record: { id, nodeId: 'node-a', leaseSeconds: 300 },
    })),
  );
  expect(shortfalls.every((shortfall) => shortfall === null)).toBe(true);
  expect(await db.selectFrom('quota_reservations').select('id').execute()).toHaveLength(70);

  // The second holder's balance ends at 94,575, the first's at 94,680: only the second crosses 94,600.
  const crossings: QuotaCrossing[] = [];
  const ledger = new SettlementLedger(
    db,
    silentLog,
    () => 94_600,
    (crossing) => crossings.push(crossing),
  );
  const createdAt = Math.floor(Date.now() / 1000);
  const committed = requests.map(({ id, holder, reserved, cost, hasLog }, index) => {
    const columns = {
      user_id: holder.userId,
      username: 'u',
      token_name: 'key',
      model_name: 'gpt-4o-mini',
      prompt_tokens: index,
      completion_tokens: 1,
      channel_id: holder.channelId,
      elapsed_time: 10 * index,
      is_stream: 0,
      request_id: id,
      content: 'settled',
    };
    const { content, ...rest } = columns;
    return ledger.record({
      holder,
      reservationId: id,
      channelId: holder.channelId,
      reserved,
      cost,
      createdAt,
      // One row of another shape in the middle of the batch, and one with a column left undefined.
      log: !hasLog
        ? null
        : index === 33
          ? { content, ...rest }
          : index === 34
            ? { ...columns, retries: undefined }
            : columns,
    });
  });
  for (const failure of ['a', 'b', 'c']) {
    ledger.recordFailure({
      type: LogType.error,
      created_at: createdAt,
      user_id: holders[0].userId,
      username: 'u',
      token_name: 'key',
      model_name: 'gpt-4o-mini',
      channel_id: holders[0].channelId,
      request_id: `failed-${failure}`,
      quota: 0,
      content: '502 upstream failed',
      // A column given as undefined takes its default (retries is NOT NULL, default '').
      retries: failure === 'c' ? undefined : '',
    });
  }
  await Promise.all(committed);
  await ledger.close();

  expect(await db.selectFrom('quota_reservations').select('id').execute()).toEqual([]);
  expect(crossings).toEqual([
    { userId: holders[1].userId, username: holders[1].username, email: '', quota: 94_575 },
  ]);
  for (const [which, holder] of holders.entries()) {
    const spent = requests
      .filter((request) => request.holder === holder)
      .reduce((sum, request) => sum + request.cost, 0);
    const user = await db
      .selectFrom('users')
      .select(['quota', 'used_quota', 'request_count'])
      .where('id', '=', holder.userId)
      .executeTakeFirstOrThrow();
    const token = await db
      .selectFrom('tokens')
      .select(['remain_quota', 'used_quota'])
      .where('id', '=', holder.tokenId)
      .executeTakeFirstOrThrow();
    expect([which, Number(user.quota), Number(user.used_quota), Number(user.request_count)]).toEqual([
      which,
      100_000 - spent,
      spent,
      35,
    ]);
    expect([Number(token.remain_quota), Number(token.used_quota)]).toEqual([100_000 - spent, spent]);
  }
  const logs = await db
    .selectFrom('logs')
    .select(['request_id', 'quota', 'type', 'prompt_tokens', 'content', 'created_at'])
    .where('type', 'in', [LogType.consume, LogType.error])
    .orderBy('id')
    .execute();
  const expected = [
    ...requests
      .filter((request) => request.hasLog)
      .map((request) => ({
        request_id: request.id,
        quota: request.cost,
        type: LogType.consume,
        prompt_tokens: Number(request.id.slice(4)),
        content: 'settled',
        created_at: createdAt,
      })),
    ...['a', 'b', 'c'].map((failure) => ({
      request_id: `failed-${failure}`,
      quota: 0,
      type: LogType.error,
      prompt_tokens: 0,
      content: '502 upstream failed',
      created_at: createdAt,
    })),
  ];
  expect(
    logs.map((log) => ({
      ...log,
      quota: Number(log.quota),
      type: Number(log.type),
      prompt_tokens: Number(log.prompt_tokens),
      created_at: Number(log.created_at),
    })),
  ).toEqual(expected);
  for (const table of ['usage_rollups_hourly', 'usage_rollups_daily'] as const) {
    const rows = await db
      .selectFrom(table)
      .select(['user_id', 'request_count', 'error_count', 'quota', 'prompt_tokens', 'latency_ms_sum'])
      .orderBy('user_id')
      .execute();
    const logged = (holder: QuotaHolder) =>
      requests.filter((request) => request.holder === holder && request.hasLog);
    expect(rows.map((row) => Object.values(row).map(Number))).toEqual(
      holders.map((holder, which) => [
        holder.userId,
        logged(holder).length + (which === 0 ? 3 : 0),
        which === 0 ? 3 : 0,
        logged(holder).reduce((sum, request) => sum + request.cost, 0),
        logged(holder).reduce((sum, request) => sum + Number(request.id.slice(4)), 0),
        logged(holder).reduce((sum, request) => sum + 10 * Number(request.id.slice(4)), 0),
      ]),
    );
  }
}

const reachable = await Promise.all(
  externalDatabaseServers.map(async (server) => [server, await isListening(server.port)] as const),
);

describe('a settlement batch of many rows', () => {
  it('on SQLite', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'gatehouse-settlement-'));
    const context = await createContext(
      loadConfig({ SQLITE_PATH: path.join(folder, 'test.db'), SESSION_SECRET: 'settlement-batch-test' }),
    );
    cleanups.push(async () => {
      await closeContext(context);
      rmSync(folder, { recursive: true, force: true });
    });
    await settleSeventy(context.db);
  });

  it('on SQLite, its transactions in the write thread', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'gatehouse-settlement-'));
    const context = await createContext(
      loadConfig({
        SQLITE_PATH: path.join(folder, 'test.db'),
        SESSION_SECRET: 'settlement-batch-test',
        SQLITE_WRITE_THREAD: 'on',
      }),
    );
    cleanups.push(async () => {
      await closeContext(context);
      rmSync(folder, { recursive: true, force: true });
    });
    await startSqliteWriteThread(context.db);
    await settleSeventy(context.db);
  });

  for (const [server, isUp] of reachable) {
    it.skipIf(!isUp)(`on ${server.name}`, async () => {
      const database = await server.create('gatehouse_settlement');
      cleanups.push(database.drop);
      const context = await createContext(
        loadConfig({ SQL_DSN: database.dsn, SESSION_SECRET: 'settlement-batch-test' }),
      );
      cleanups.unshift(() => closeContext(context));
      await settleSeventy(context.db);
    });
  }
});
