import { afterEach, describe, expect, it } from 'vitest';
import { LogType, nowSeconds, Role } from '@gatehouse/shared';
import { pruneConsumptionLogs } from '../src/logs/log-retention';
import { addLogsToRollups } from '../src/rollups/usage-rollups';
import { createTestApp, createUserSession, type TestApp } from './test-app';

let test: TestApp | null = null;
afterEach(async () => {
  await test?.close();
  test = null;
});

const DAY = 86_400;

async function seedLogs(app: TestApp, count: number, ageDays: number, type: number = LogType.consume) {
  const createdAt = nowSeconds() - ageDays * DAY;
  const rows = Array.from({ length: count }, (_, index) => ({
    type,
    user_id: 1,
    token_name: 'k',
    model_name: 'gpt-4o',
    channel_id: 1,
    quota: 10,
    created_at: createdAt - index,
  }));
  for (let start = 0; start < rows.length; start += 200) {
    await app.context.db
      .insertInto('logs')
      .values(rows.slice(start, start + 200))
      .execute();
  }
  await addLogsToRollups(app.context.db, rows);
}

async function countLogs(app: TestApp, type: number) {
  const row = await app.context.db
    .selectFrom('logs')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('type', '=', type)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

async function rolledUpRequests(app: TestApp) {
  const row = await app.context.db
    .selectFrom('usage_rollups_daily')
    .select((eb) => eb.fn.sum<number>('request_count').as('requests'))
    .executeTakeFirstOrThrow();
  return Number(row.requests);
}

describe('consumption log retention', () => {
  it('deletes only consumption and error rows older than LogRetentionDays, in batches, and keeps the rollups', async () => {
    test = await createTestApp();
    await seedLogs(test, 2_345, 40);
    await seedLogs(test, 7, 40, LogType.error);
    await seedLogs(test, 50, 10);
    await seedLogs(test, 3, 40, LogType.topup);
    await test.context.options.set('LogRetentionDays', '30');

    const result = await pruneConsumptionLogs(test.context, { batchSize: 1000, pauseMs: 0 });
    expect(result).toEqual({ deleted: 2_352, batches: 3 });
    expect(await countLogs(test, LogType.consume)).toBe(50);
    expect(await countLogs(test, LogType.error)).toBe(0);
    // Top-ups are not per-request detail: kept.
    expect(await countLogs(test, LogType.topup)).toBe(3);
    // The history of the dashboard stays.
    expect(await rolledUpRequests(test)).toBe(2_345 + 7 + 50);
    expect(await pruneConsumptionLogs(test.context, { pauseMs: 0 })).toEqual({ deleted: 0, batches: 0 });
  });

  it('keeps every row when LogRetentionDays is 0, the default', async () => {
    test = await createTestApp();
    await seedLogs(test, 20, 4_000);
    expect(test.context.options.getNumber('LogRetentionDays')).toBe(0);
    expect(await pruneConsumptionLogs(test.context, { pauseMs: 0 })).toEqual({ deleted: 0, batches: 0 });
    expect(await countLogs(test, LogType.consume)).toBe(20);
  });

  it('refuses a negative or fractional retention through the options API', async () => {
    test = await createTestApp();
    const root = await createUserSession(test, { role: Role.root });
    for (const value of ['-1', '1.5', 'x']) {
      const response = await test.app.inject({
        method: 'PUT',
        url: '/api/option/',
        headers: root.headers,
        payload: { key: 'LogRetentionDays', value },
      });
      expect(response.json()).toMatchObject({
        success: false,
        message: expect.stringContaining('LogRetentionDays'),
      });
    }
    expect(test.context.options.getNumber('LogRetentionDays')).toBe(0);
  });
});
