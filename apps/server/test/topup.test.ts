import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LogType, RedemptionStatus, Role } from '@gatehouse/shared';
import { createTestApp, createUserSession, envelope, type Session, type TestApp } from './test-app';

let test: TestApp;
let admin: Session;
let user: Session;
beforeEach(async () => {
  test = await createTestApp();
  admin = await createUserSession(test, { role: Role.admin });
  user = await createUserSession(test, { quota: 1000 });
});
afterEach(async () => {
  await test.close();
});

async function createCode(quota = 250000, count = 1): Promise<string[]> {
  const response = await test.app.inject({
    method: 'POST',
    url: '/api/redemption/',
    headers: admin.headers,
    payload: { name: 'gift', quota, count },
  });
  return envelope<string[]>(response).data;
}

const topup = (session: Session, key: unknown) =>
  test.app.inject({ method: 'POST', url: '/api/user/topup', headers: session.headers, payload: { key } });

async function balanceOf(session: Session): Promise<number> {
  const row = await test.context.db
    .selectFrom('users')
    .select('quota')
    .where('id', '=', session.user.id)
    .executeTakeFirstOrThrow();
  return Number(row.quota);
}

const topupLogs = () =>
  test.context.db.selectFrom('logs').selectAll().where('type', '=', LogType.topup).execute();

describe('POST /api/user/topup', () => {
  it('adds the quota, marks the code used by the user with the time, and writes a top-up log', async () => {
    const [key] = await createCode(250000);
    const body = envelope<number>(await topup(user, `  ${key}  `));
    expect(body).toMatchObject({ success: true, data: 250000 });
    expect(await balanceOf(user)).toBe(251000);
    const code = await test.context.db
      .selectFrom('redemptions')
      .selectAll()
      .where('key', '=', key!)
      .executeTakeFirstOrThrow();
    expect(code).toMatchObject({ status: RedemptionStatus.used, used_user_id: user.user.id });
    expect(Math.abs(Number(code.redeemed_time) - Date.now() / 1000)).toBeLessThan(5);
    const logs = await topupLogs();
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ user_id: user.user.id, username: user.user.username, quota: 250000 });
    expect(logs[0]!.content).toContain('$0.50');
    expect(logs[0]!.content).not.toContain(key);
  });

  it('gives clear messages for empty, unknown, used and disabled codes, changing nothing', async () => {
    const [used, disabled] = await createCode(5000, 2);
    expect(envelope(await topup(user, used)).success).toBe(true);
    await test.context.db
      .updateTable('redemptions')
      .set({ status: RedemptionStatus.disabled })
      .where('key', '=', disabled!)
      .execute();
    const balance = await balanceOf(user);

    expect(envelope(await topup(user, '   '))).toMatchObject({
      success: false,
      message: 'Please enter a redemption code',
    });
    expect(envelope(await topup(user, 'not-a-real-code'))).toMatchObject({
      success: false,
      message: 'Invalid redemption code',
    });
    expect(envelope(await topup(user, used))).toMatchObject({
      success: false,
      message: 'This redemption code has already been used',
    });
    expect(envelope(await topup(user, disabled))).toMatchObject({
      success: false,
      message: 'This redemption code is disabled',
    });
    expect(await balanceOf(user)).toBe(balance);
    expect(await topupLogs()).toHaveLength(1);
  });

  it('needs a login', async () => {
    const [key] = await createCode();
    const response = await test.app.inject({ method: 'POST', url: '/api/user/topup', payload: { key } });
    expect(response.statusCode).toBe(401);
  });

  it('redeems one code exactly once under 20 parallel attempts', async () => {
    const [key] = await createCode(300000);
    const other = await createUserSession(test, { quota: 0 });
    const attempts = await Promise.all(
      Array.from({ length: 20 }, (_, index) => topup(index % 2 === 0 ? user : other, key)),
    );
    const bodies = attempts.map((response) => envelope<number>(response));
    const successes = bodies.filter((body) => body.success);
    expect(successes).toHaveLength(1);
    expect(
      bodies.filter((body) => !body.success).every((body) => /already been used/.test(body.message)),
    ).toBe(true);
    const total = (await balanceOf(user)) + (await balanceOf(other));
    expect(total).toBe(1000 + 300000);
    expect(await topupLogs()).toHaveLength(1);
  });

  it('redeems 20 different codes in parallel, each once', async () => {
    const keys = await createCode(1000, 20);
    const results = await Promise.all(keys.map((key) => topup(user, key)));
    expect(results.every((response) => envelope(response).success)).toBe(true);
    expect(await balanceOf(user)).toBe(1000 + 20 * 1000);
  });

  it('limits failed attempts per user with HTTP 429, leaving other users alone', async () => {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect(envelope(await topup(user, `guess-${attempt}`)).message).toBe('Invalid redemption code');
    }
    const [key] = await createCode(5000);
    const limited = await topup(user, key);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(envelope(limited).message).toMatch(/Too many failed redemption attempts/);
    // a valid code is not spent by the refused attempt
    expect(envelope(await topup(admin, key))).toMatchObject({ success: true, data: 5000 });
  });
});
