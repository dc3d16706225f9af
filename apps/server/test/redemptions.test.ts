import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LogType, RedemptionStatus, Role, type Redemption } from '@gatehouse/shared';
import { createTestApp, createUserSession, envelope, type Session, type TestApp } from './test-app';

let test: TestApp;
let admin: Session;
beforeEach(async () => {
  test = await createTestApp();
  admin = await createUserSession(test, { role: Role.admin });
});
afterEach(async () => {
  await test.close();
});

async function call<T = Redemption>(
  session: Session,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) {
  return envelope<T>(await test.app.inject({ method, url, payload, headers: session.headers }));
}

async function createCodes(fields: Record<string, unknown> = {}): Promise<string[]> {
  const body = await call<string[]>(admin, 'POST', '/api/redemption/', {
    name: 'launch',
    quota: 100000,
    count: 1,
    ...fields,
  });
  expect(body.message).toBe('');
  expect(body.success).toBe(true);
  return body.data;
}

const storedCodes = () => test.context.db.selectFrom('redemptions').selectAll().orderBy('id').execute();

describe('creating redemption codes', () => {
  it('creates `count` distinct 32-character codes of one name and quota, and logs it', async () => {
    const keys = await createCodes({ name: 'promo', quota: 2500, count: 3 });
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(3);
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9]{32}$/);
    const rows = await storedCodes();
    expect(rows.map((row) => row.key).sort()).toEqual([...keys].sort());
    for (const row of rows) {
      expect(row).toMatchObject({
        name: 'promo',
        quota: 2500,
        status: RedemptionStatus.unused,
        user_id: admin.user.id,
      });
    }
    const log = await test.context.db.selectFrom('logs').selectAll().executeTakeFirstOrThrow();
    expect(log).toMatchObject({ type: LogType.manage, user_id: admin.user.id });
    expect(log.content).toContain('3 redemption code(s) "promo"');
  });

  it('creates 100 at once', async () => {
    expect(await createCodes({ count: 100 })).toHaveLength(100);
  });

  const invalid: Array<[string, Record<string, unknown>, RegExp]> = [
    ['no name', { name: '' }, /Name is required/],
    ['a name of 21 characters', { name: 'n'.repeat(21) }, /at most 20 characters/],
    ['quota 0', { quota: 0 }, /Quota must be a whole number greater than 0/],
    ['a negative quota', { quota: -5 }, /Quota must be/],
    ['a fractional quota', { quota: 2.5 }, /Quota must be/],
    ['count 0', { count: 0 }, /Count must be a whole number from 1 to 100/],
    ['count 101', { count: 101 }, /Count must be a whole number from 1 to 100/],
    ['count as words', { count: 'many' }, /Count must be/],
  ];
  it.each(invalid)('refuses %s and stores nothing', async (_, fields, message) => {
    const body = await call(admin, 'POST', '/api/redemption/', { name: 'x', quota: 10, count: 1, ...fields });
    expect(body.success).toBe(false);
    expect(body.message).toMatch(message);
    expect(await storedCodes()).toEqual([]);
  });
});

describe('who may manage codes', () => {
  it('answers 401 without login and 403 to an ordinary user on every route', async () => {
    const user = await createUserSession(test);
    const routes: Array<['GET' | 'POST' | 'PUT' | 'DELETE', string]> = [
      ['GET', '/api/redemption/'],
      ['GET', '/api/redemption/search?keyword=a'],
      ['GET', '/api/redemption/1'],
      ['POST', '/api/redemption/'],
      ['PUT', '/api/redemption/'],
      ['DELETE', '/api/redemption/1/'],
    ];
    for (const [method, url] of routes) {
      const anonymous = await test.app.inject({ method, url, payload: method === 'GET' ? undefined : {} });
      expect(anonymous.statusCode).toBe(401);
      const ordinary = await test.app.inject({
        method,
        url,
        headers: user.headers,
        payload: method === 'POST' ? { name: 'mine', quota: 999999999, count: 100 } : undefined,
      });
      expect(ordinary.statusCode).toBe(403);
    }
    expect(await storedCodes()).toEqual([]);
  });
});

describe('listing, searching, editing, deleting', () => {
  it('lists newest first with paging and searches by name, id and code', async () => {
    const [first] = await createCodes({ name: 'alpha' });
    await createCodes({ name: 'beta', count: 2 });
    const names = async (url: string) =>
      (await call<Redemption[]>(admin, 'GET', url)).data.map((row) => row.name);
    expect(await names('/api/redemption/?p=0')).toEqual(['beta', 'beta', 'alpha']);
    expect(await names('/api/redemption/?p=1&size=2')).toEqual(['alpha']);
    expect(await names('/api/redemption/search?keyword=%20alp%20')).toEqual(['alpha']);
    expect(await names(`/api/redemption/search?keyword=${first}`)).toEqual(['alpha']);
    const [alpha] = (await call<Redemption[]>(admin, 'GET', '/api/redemption/search?keyword=alpha')).data;
    expect(await names(`/api/redemption/search?keyword=${alpha?.id}`)).toEqual(['alpha']);
    expect((await call(admin, 'GET', `/api/redemption/${alpha?.id}`)).data).toMatchObject({
      key: first,
      quota: 100000,
    });
  });

  it('edits name and quota, toggles, and refuses all of that once the code is used', async () => {
    await createCodes();
    const [row] = await storedCodes();
    const id = row!.id;
    const edited = await call(admin, 'PUT', '/api/redemption/', { id, name: 'renamed', quota: 7 });
    expect(edited.data).toMatchObject({ name: 'renamed', quota: 7, status: RedemptionStatus.unused });
    expect((await call(admin, 'PUT', '/api/redemption/', { id, name: 'renamed', quota: 0 })).success).toBe(
      false,
    );

    const disabled = await call(admin, 'PUT', '/api/redemption/?status_only=true', {
      id,
      status: RedemptionStatus.disabled,
    });
    expect(disabled.data.status).toBe(RedemptionStatus.disabled);
    const setUsed = await call(admin, 'PUT', '/api/redemption/?status_only=true', {
      id,
      status: RedemptionStatus.used,
    });
    expect(setUsed.message).toMatch(/status must be 1 \(unused\) or 2 \(disabled\)/);

    await test.context.db
      .updateTable('redemptions')
      .set({ status: RedemptionStatus.used })
      .where('id', '=', id)
      .execute();
    const toggleUsed = await call(admin, 'PUT', '/api/redemption/?status_only=true', {
      id,
      status: RedemptionStatus.unused,
    });
    expect(toggleUsed).toMatchObject({ success: false, message: expect.stringMatching(/already been used/) });
    expect((await call(admin, 'PUT', '/api/redemption/', { id, name: 'again', quota: 99 })).success).toBe(
      false,
    );
    const [after] = await storedCodes();
    expect(after).toMatchObject({ status: RedemptionStatus.used, name: 'renamed', quota: 7 });
  });

  it('answers not found for unknown ids and deletes', async () => {
    await createCodes();
    const [row] = await storedCodes();
    expect((await call(admin, 'GET', '/api/redemption/424242')).message).toBe('Redemption code not found');
    expect((await call(admin, 'PUT', '/api/redemption/', { id: 424242, name: 'x', quota: 1 })).message).toBe(
      'Redemption code not found',
    );
    expect((await call(admin, 'DELETE', `/api/redemption/${row!.id}/`)).success).toBe(true);
    expect(await storedCodes()).toEqual([]);
    expect((await call(admin, 'DELETE', `/api/redemption/${row!.id}/`)).message).toBe(
      'Redemption code not found',
    );
  });
});
