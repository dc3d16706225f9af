import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TokenStatus } from '@gatehouse/shared';
import type { TokenRow } from '../db/schema';
import { createTestApp, type TestApp } from '../../test/test-app';
import { checkTokenUsable, findEnableRefusal, resolveTokenStatus } from './token-status';

const NOW = 1_800_000_000;
const limits = { expired_time: -1, remain_quota: 10, unlimited_quota: 0 };

describe('resolveTokenStatus', () => {
  it.each([
    ['a valid key', { status: TokenStatus.enabled }, TokenStatus.enabled],
    [
      'a disabled key, even when expired',
      { status: TokenStatus.disabled, expired_time: NOW - 1 },
      TokenStatus.disabled,
    ],
    ['a key expiring this second', { status: TokenStatus.enabled, expired_time: NOW }, TokenStatus.expired],
    [
      'a key expiring next second',
      { status: TokenStatus.enabled, expired_time: NOW + 1 },
      TokenStatus.enabled,
    ],
    ['a key with no quota left', { status: TokenStatus.enabled, remain_quota: 0 }, TokenStatus.exhausted],
    [
      'an unlimited key with no quota',
      { status: TokenStatus.enabled, remain_quota: 0, unlimited_quota: 1 },
      TokenStatus.enabled,
    ],
    ['an exhausted key given quota', { status: TokenStatus.exhausted, remain_quota: 5 }, TokenStatus.enabled],
    [
      'an expired and exhausted key',
      { status: TokenStatus.enabled, remain_quota: 0, expired_time: 1 },
      TokenStatus.expired,
    ],
  ])('%s', (_, token, expected) => {
    expect(resolveTokenStatus({ ...limits, ...token }, NOW)).toBe(expected);
  });

  it('says why a key cannot be enabled', () => {
    expect(findEnableRefusal({ ...limits, expired_time: NOW - 5 }, NOW)).toMatch(/expired/);
    expect(findEnableRefusal({ ...limits, remain_quota: -3 }, NOW)).toMatch(/used up its quota/);
    expect(findEnableRefusal(limits, NOW)).toBeNull();
  });
});

describe('checkTokenUsable', () => {
  let test: TestApp;
  beforeEach(async () => {
    test = await createTestApp();
  });
  afterEach(async () => {
    await test.close();
  });

  async function insertKey(fields: Partial<TokenRow>): Promise<TokenRow> {
    const key = `k${Math.random().toString(36).slice(2)}`;
    await test.context.db
      .insertInto('tokens')
      .values({ user_id: 1, key, name: 'k', ...limits, ...fields })
      .execute();
    return test.context.db.selectFrom('tokens').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
  }
  const storedStatus = async (id: number) =>
    (
      await test.context.db
        .selectFrom('tokens')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).status;

  it('lets a valid key through and marks an expired or exhausted one', async () => {
    const valid = await insertKey({});
    expect(await checkTokenUsable(test.context.db, valid, NOW)).toEqual({ usable: true });

    const expired = await insertKey({ expired_time: NOW - 1 });
    expect(await checkTokenUsable(test.context.db, expired, NOW)).toMatchObject({
      usable: false,
      status: TokenStatus.expired,
      message: 'This API key has expired',
    });
    expect(await storedStatus(expired.id)).toBe(TokenStatus.expired);

    const empty = await insertKey({ remain_quota: 0 });
    expect(await checkTokenUsable(test.context.db, empty, NOW)).toMatchObject({
      status: TokenStatus.exhausted,
    });
    expect(await storedStatus(empty.id)).toBe(TokenStatus.exhausted);
  });

  it('refuses a disabled key without touching its status', async () => {
    const disabled = await insertKey({ status: TokenStatus.disabled, expired_time: NOW - 1 });
    expect(await checkTokenUsable(test.context.db, disabled, NOW)).toMatchObject({
      usable: false,
      status: TokenStatus.disabled,
    });
    expect(await storedStatus(disabled.id)).toBe(TokenStatus.disabled);
  });
});
