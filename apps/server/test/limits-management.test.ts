import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Token, User } from '@gatehouse/shared';
import { createTestApp, createUserSession, envelope, loginAs, type Session, type TestApp } from './test-app';

let test: TestApp;
let alice: Session;
beforeEach(async () => {
  test = await createTestApp();
  alice = await createUserSession(test);
});
afterEach(async () => {
  await test.close();
});

const call = <T>(session: Session, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  test.app
    .inject({ method, url, payload, headers: session.headers })
    .then((response) => ({ status: response.statusCode, ...envelope<T>(response) }));

const keyFields = { name: 'limited', remain_quota: 1000, expired_time: -1, unlimited_quota: true };

describe('key limits through /api/token/', () => {
  it('stores, answers and updates rpm, tpm, parallel, budget and per-model overrides', async () => {
    const created = await call<Token>(alice, 'POST', '/api/token/', {
      ...keyFields,
      rpm_limit: 60,
      tpm_limit: '90000',
      max_parallel_requests: 4,
      budget: 500000,
      budget_period: 'monthly',
      model_limits: { 'gpt-4o': { rpm_limit: 5 }, 'o1 ': { tpm_limit: 1000 } },
    });
    expect(created.message).toBe('');
    expect(created.data).toMatchObject({
      rpm_limit: 60,
      tpm_limit: 90000,
      max_parallel_requests: 4,
      budget: 500000,
      budget_period: 'monthly',
      model_limits: { 'gpt-4o': { rpm_limit: 5 }, o1: { tpm_limit: 1000 } },
    });
    const { id } = created.data;
    const listed = await call<Token[]>(alice, 'GET', '/api/token/');
    expect(listed.data[0]).toMatchObject({ id, rpm_limit: 60, model_limits: { 'gpt-4o': { rpm_limit: 5 } } });

    const updated = await call<Token>(alice, 'PUT', '/api/token/', {
      ...keyFields,
      id,
      rpm_limit: 0,
      model_limits: '',
    });
    expect(updated.data).toMatchObject({
      rpm_limit: 0,
      tpm_limit: 0,
      budget: 0,
      budget_period: '',
      model_limits: {},
    });
    const stored = await test.context.db
      .selectFrom('tokens')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored.model_limits).toBe('');
    expect((await call<Token>(alice, 'GET', `/api/token/${id}`)).data.model_limits).toEqual({});
  });

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ['a negative RPM', { rpm_limit: -1 }, 'rpm_limit must be a whole number from 0 (unlimited) to 1000000'],
    [
      'a fractional TPM',
      { tpm_limit: 1.5 },
      'tpm_limit must be a whole number from 0 (unlimited) to 1000000000',
    ],
    [
      'an absurd parallel limit',
      { max_parallel_requests: 1e12 },
      'max_parallel_requests must be a whole number from 0 (unlimited) to 100000',
    ],
    [
      'an unknown period',
      { budget: 10, budget_period: 'yearly' },
      'budget_period must be "", "daily", "weekly" or "monthly"',
    ],
    [
      'a budget without a period',
      { budget: 10 },
      'budget needs a budget_period: "daily", "weekly" or "monthly"',
    ],
    [
      'a model override with an unknown field',
      { model_limits: { m: { rpm: 1 } } },
      'model_limits entries take only rpm_limit and tpm_limit',
    ],
    [
      'model_limits that are not JSON',
      { model_limits: '{oops' },
      'model_limits must map model names to {rpm_limit, tpm_limit}',
    ],
  ];
  it.each(invalid)('refuses %s naming the field, storing nothing', async (_, fields, message) => {
    const refused = await call(alice, 'POST', '/api/token/', { ...keyFields, ...fields });
    expect(refused.success).toBe(false);
    expect(refused.message).toContain(message);
    expect(await test.context.db.selectFrom('tokens').select('id').execute()).toHaveLength(0);
  });
});

describe('user limits through /api/user/', () => {
  it('are set by an administrator, kept when omitted, and shown in the user list', async () => {
    const root = await loginAs(test, 'root', '123456');
    const edited = await call<User>(root, 'PUT', '/api/user/', {
      id: alice.user.id,
      rpm_limit: 100,
      budget: 2000,
      budget_period: 'weekly',
    });
    expect(edited.message).toBe('User info updated successfully!');
    expect(edited.data).toMatchObject({
      rpm_limit: 100,
      tpm_limit: 0,
      budget: 2000,
      budget_period: 'weekly',
    });
    const renamed = await call<User>(root, 'PUT', '/api/user/', { id: alice.user.id, display_name: 'Alice' });
    expect(renamed.data).toMatchObject({ rpm_limit: 100, budget: 2000, budget_period: 'weekly' });
    const listed = await call<User[]>(root, 'GET', '/api/user/');
    expect(listed.data.find((user) => user.id === alice.user.id)).toMatchObject({ rpm_limit: 100 });
    const refused = await call(root, 'PUT', '/api/user/', { id: alice.user.id, budget_period: '' });
    expect(refused.message).toContain('budget needs a budget_period');
  });

  it('cannot be raised by the user themselves', async () => {
    const answer = await call(alice, 'PUT', '/api/user/', { id: alice.user.id, rpm_limit: 0 });
    expect(answer.success).toBe(false);
    await call(alice, 'PUT', '/api/user/self', { display_name: 'Me', rpm_limit: 5 });
    const row = await test.context.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', alice.user.id)
      .executeTakeFirstOrThrow();
    expect(row.rpm_limit).toBe(0);
  });
});
