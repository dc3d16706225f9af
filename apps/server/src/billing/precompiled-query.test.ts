import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { precompile } from './precompiled-query';

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => {
  await test.close();
});

describe('precompile', () => {
  it('runs the compiled statement with new arguments in their places, keeping constants', async () => {
    const { db } = test.context;
    await db
      .insertInto('users')
      .values([
        { username: 'ann', password: 'x', aff_code: 'a1', quota: 100, status: 1, created_at: 0 },
        { username: 'bob', password: 'x', aff_code: 'b1', quota: 300, status: 2, created_at: 0 },
        { username: 'cy', password: 'x', aff_code: 'c1', quota: 500, status: 1, created_at: 0 },
      ])
      .execute();
    const richEnabled = precompile(
      (database, minimum: number, name: string) =>
        database
          .selectFrom('users')
          .select('username')
          .where('status', '=', 1)
          .where('quota', '>=', minimum)
          .where('quota', '<', 1_000_000)
          .where('username', '!=', name)
          .orderBy('username'),
      [-123_456, '\u0000name'],
    );
    const names = async (minimum: number, name: string) =>
      (await db.executeQuery<{ username: string }>(richEnabled(db, minimum, name))).rows.map(
        (row) => row.username,
      );
    expect(await names(50, 'nobody')).toEqual(['ann', 'cy']);
    expect(await names(200, 'nobody')).toEqual(['cy']);
    expect(await names(50, 'ann')).toEqual(['cy']);
  });

  it('puts an argument used twice in both places', async () => {
    const { db } = test.context;
    const take = precompile(
      (database, amount: number, name: string) =>
        database
          .updateTable('users')
          .set((set) => ({ quota: set('quota', '-', amount) }))
          .where('username', '=', name)
          .where('quota', '>=', amount),
      [-777_001, '\u0000who'],
    );
    expect(Number((await db.executeQuery(take(db, 80, 'ann'))).numAffectedRows)).toBe(1);
    expect(Number((await db.executeQuery(take(db, 80, 'ann'))).numAffectedRows)).toBe(0);
    const row = await db
      .selectFrom('users')
      .select('quota')
      .where('username', '=', 'ann')
      .executeTakeFirstOrThrow();
    expect(Number(row.quota)).toBe(20);
  });
});
