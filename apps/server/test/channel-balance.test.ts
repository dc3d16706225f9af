import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChannelStatus, ChannelType, Role, channelBalanceCurrencies } from '@gatehouse/shared';
import { balanceReaders } from '../src/channels/balance/balance-readers';
import { startSmtpCatcher } from './support/smtp-catcher';
import { startStandInServer, type StandInServer } from './support/stand-in-server';
import { createTestApp, createUserSession, envelope, type Session, type TestApp } from './test-app';

/** Each vendor's documented balance answer, by path; `answers` overrides one for a test. */
const vendorAnswers: Record<string, unknown> = {
  '/v1/dashboard/billing/subscription': {
    object: 'billing_subscription',
    has_payment_method: true,
    hard_limit_usd: 100,
  },
  '/v1/dashboard/billing/usage': { object: 'list', total_usage: 2550 },
  '/dashboard/billing/credit_grants': {
    object: 'credit_summary',
    total_granted: 20,
    total_used: 7.7,
    total_available: 12.3,
  },
  '/api/v1/credits': { data: { total_credits: 20, total_usage: 5.5 } },
  '/user/balance': {
    is_available: true,
    balance_infos: [
      { currency: 'USD', total_balance: '3.00', granted_balance: '0.00', topped_up_balance: '3.00' },
      { currency: 'CNY', total_balance: '110.00', granted_balance: '10.00', topped_up_balance: '100.00' },
    ],
  },
  '/v1/user/info': {
    code: 20000,
    message: 'OK',
    status: true,
    data: { balance: '0.88', totalBalance: '88.88' },
  },
  '/v1/users/me/balance': {
    code: 0,
    status: true,
    data: { available_balance: 49.5, voucher_balance: 0, cash_balance: 49.5 },
  },
};

let upstream: StandInServer;
let answers: Record<string, { status?: number; json: unknown }>;
let test: TestApp;
let admin: Session;

beforeAll(async () => {
  upstream = await startStandInServer(
    (request) => answers[request.path] ?? { json: vendorAnswers[request.path] ?? {} },
  );
  test = await createTestApp();
  admin = await createUserSession(test, { role: Role.admin });
});
afterAll(async () => {
  await test.close();
  await upstream.close();
});
beforeEach(() => {
  answers = {};
  upstream.requests.length = 0;
});

async function createChannel(type: number, baseUrlPath = '', balance = 0): Promise<number> {
  const row = await test.context.db
    .insertInto('channels')
    .values({
      type,
      key: 'sk-vendor',
      name: `balance ${type}`,
      base_url: upstream.url + baseUrlPath,
      balance,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function refresh(id: number, headers = admin.headers) {
  // one-api's console calls it with a trailing slash.
  return test.app.inject({ url: `/api/channel/update_balance/${id}/`, headers });
}

const channelRow = (id: number) =>
  test.context.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('GET /api/channel/update_balance/{id}', () => {
  it.each([
    ['OpenAI billing (subscription − usage)', ChannelType.openai, '', 74.5],
    ['a custom OpenAI-compatible reseller', ChannelType.custom, '', 74.5],
    ['CloseAI credit grants', ChannelType.closeai, '', 12.3],
    ['OpenRouter credits', ChannelType.openRouter, '/api', 14.5],
    ['DeepSeek (the yuan entry)', ChannelType.deepseek, '', 110],
    ['SiliconFlow', ChannelType.siliconFlow, '', 88.88],
    ['Moonshot', ChannelType.moonshot, '', 49.5],
  ])('reads %s and stores it', async (_name, type, baseUrlPath, expected) => {
    const id = await createChannel(type, baseUrlPath);
    const response = await refresh(id);
    expect(response.json()).toEqual({ success: true, message: '', balance: expected });
    const row = await channelRow(id);
    expect(row.balance).toBe(expected);
    expect(row.balance_updated_time).toBeGreaterThan(0);
    expect(upstream.requests[0].headers.authorization).toBe('Bearer sk-vendor');
  });

  it('asks OpenAI for this month’s usage when the account has a payment method', async () => {
    await refresh(await createChannel(ChannelType.openai));
    const usage = upstream.requests.find((request) => request.path === '/v1/dashboard/billing/usage');
    const today = new Date().toISOString().slice(0, 10);
    expect(usage?.query.get('start_date')).toBe(`${today.slice(0, 7)}-01`);
    expect(usage?.query.get('end_date')).toBe(today);
  });

  it('says a type has no balance API and leaves the channel untouched', async () => {
    const id = await createChannel(ChannelType.anthropic, '', 5);
    const body = envelope(await refresh(id));
    expect(body).toMatchObject({ success: false, message: 'Anthropic Claude channels have no balance API' });
    expect(upstream.requests).toHaveLength(0);
    expect((await channelRow(id)).balance).toBe(5);
  });

  it.each([
    ['a malformed answer', { json: { data: { totalBalance: 'lots' } } }, 'could not be read'],
    ['an error status', { status: 401, json: { message: 'Invalid token' } }, 'HTTP 401'],
  ])('keeps the old balance and status on %s', async (_name, answer, message) => {
    answers['/v1/user/info'] = answer;
    const id = await createChannel(ChannelType.siliconFlow, '', 7);
    const body = envelope(await refresh(id));
    expect(body.success).toBe(false);
    expect(body.message).toContain(message);
    const row = await channelRow(id);
    expect(row).toMatchObject({ balance: 7, balance_updated_time: 0, status: ChannelStatus.enabled });
  });

  it('is for administrators, and refused when another site triggers it', async () => {
    const id = await createChannel(ChannelType.deepseek);
    const user = await createUserSession(test);
    expect((await refresh(id, user.headers)).statusCode).toBe(403);
    const crossSite = await refresh(id, { ...admin.headers, 'sec-fetch-site': 'cross-site' });
    expect(crossSite.statusCode).toBe(403);
    expect(upstream.requests).toHaveLength(0);
  });
});

describe('GET /api/channel/update_balance', () => {
  it('refreshes every enabled channel with a balance API in the background', async () => {
    const deepseek = await createChannel(ChannelType.deepseek);
    const disabled = await createChannel(ChannelType.moonshot);
    await test.context.db
      .updateTable('channels')
      .set({ status: ChannelStatus.manuallyDisabled })
      .where('id', '=', disabled)
      .execute();
    const response = await test.app.inject({ url: '/api/channel/update_balance', headers: admin.headers });
    expect(response.json()).toEqual({ success: true, message: '' });
    await expect.poll(async () => (await channelRow(deepseek)).balance, { timeout: 20_000 }).toBe(110);
    expect((await channelRow(disabled)).balance_updated_time).toBe(0);
  });
});

describe('the console knows which types have a balance API', () => {
  it('lists the same channel types as the server reads', () => {
    const typesOf = (record: object) =>
      Object.keys(record)
        .map(Number)
        .sort((a, b) => a - b);
    expect(typesOf(channelBalanceCurrencies)).toEqual(typesOf(balanceReaders));
  });
});

describe('ChannelBalanceWarningThreshold', () => {
  it('e-mails root once when a refreshed balance falls below it', async () => {
    const smtp = await startSmtpCatcher();
    const { options, db } = test.context;
    try {
      await options.set('SMTPServer', '127.0.0.1');
      await options.set('SMTPPort', String(smtp.port));
      await options.set('SMTPFrom', 'noreply@gatehouse.test');
      await options.set('ChannelBalanceWarningThreshold', '50');
      await db
        .updateTable('users')
        .set({ email: 'root@example.com' })
        .where('id', '=', admin.user.id)
        .execute();
      await db.updateTable('users').set({ role: Role.root }).where('id', '=', admin.user.id).execute();
      // Moonshot answers 49.5: below 50 on the first refresh, still below on the second (no second mail).
      const id = await createChannel(ChannelType.moonshot);
      await refresh(id);
      await refresh(id);
      const mail = await smtp.nextMailTo('root@example.com');
      expect(mail.subject).toContain('running low');
      expect(mail.text).toContain('49.50');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(smtp.messages.filter((message) => message.to.includes('root@example.com'))).toHaveLength(1);
    } finally {
      await options.set('ChannelBalanceWarningThreshold', '0');
      await options.set('SMTPServer', '');
      await smtp.close();
    }
  });
});
