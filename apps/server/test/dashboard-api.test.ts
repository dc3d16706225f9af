import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role, type DashboardData } from '@gatehouse/shared';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';
import { loginAs, type Session } from './test-app';

/** GET /api/dashboard: who sees what, and the ranges it refuses. */
let kit: RelayKit;
const upstreams: OpenAIUpstream[] = [];
let alice: Session;
let bob: Session;
let admin: Session;

beforeAll(async () => {
  kit = await startRelayKit();
  const good = await startOpenAIUpstream('good', { usage: { prompt: 10, completion: 5 } });
  const broken = await startOpenAIUpstream('broken', { error: { status: 500, message: 'down' } });
  upstreams.push(good, broken);
  await kit.createChannel({ upstream: good, models: 'gpt-4o,gpt-4o-mini', name: 'good one' });
  await kit.createChannel({ upstream: broken, models: 'gpt-4o-broken', name: 'broken one' });
  await kit.test.context.options.set('ModelRatio', JSON.stringify({ 'gpt-4o-broken': 1 }));
  const users = [await kit.createUser(), await kit.createUser(), await kit.createUser({ role: Role.admin })];
  [alice, bob, admin] = await Promise.all(
    users.map((user) => loginAs(kit.test, user.username, 'password123')),
  );
  const aliceKey = await kit.createKey(users[0].id, { name: 'alice-key' });
  const bobKey = await kit.createKey(users[1].id, { name: 'bob-key' });
  const ask = (key: string, model: string) =>
    kit.client(key).chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
  await ask(aliceKey.key, 'gpt-4o');
  await ask(aliceKey.key, 'gpt-4o-mini');
  await ask(bobKey.key, 'gpt-4o');
  await ask(bobKey.key, 'gpt-4o');
  await ask(bobKey.key, 'gpt-4o');
  await expect(ask(bobKey.key, 'gpt-4o-broken')).rejects.toThrow();
  await kit.settle();
});

afterAll(async () => {
  await kit.close();
  for (const upstream of upstreams) await upstream.close();
});

async function dashboard(session: Session, query: string) {
  const response = await kit.test.app.inject({
    method: 'GET',
    url: `/api/dashboard?${query}`,
    headers: session.headers,
  });
  return {
    status: response.statusCode,
    body: response.json() as { success: boolean; message: string; data: DashboardData },
  };
}

describe('GET /api/dashboard', () => {
  it('shows a user only their own keys, without channels', async () => {
    const { body } = await dashboard(alice, 'granularity=hour');
    expect(body.success).toBe(true);
    expect(body.data.scope).toBe('self');
    expect(body.data.totals).toMatchObject({
      requests: 2,
      errors: 0,
      prompt_tokens: 20,
      completion_tokens: 10,
    });
    expect(body.data.top_keys.map((key) => key.name)).toEqual(['alice-key']);
    expect(body.data.top_keys[0]).not.toHaveProperty('username');
    expect(body.data.top_models.map((model) => model.name).sort()).toEqual(['gpt-4o', 'gpt-4o-mini']);
    expect(body.data).not.toHaveProperty('channels');
    expect(body.data).not.toHaveProperty('top_channels');
    // The series covers the range bucket by bucket and adds up to the totals.
    expect(body.data.series.length).toBeGreaterThanOrEqual(24);
    expect(body.data.series.reduce((sum, point) => sum + point.requests, 0)).toBe(2);
  });

  it('refuses scope=all to a user, and answers it to an admin with channels, error rates and latencies', async () => {
    const refused = await dashboard(bob, 'scope=all');
    expect(refused.status).toBe(403);
    expect(refused.body.success).toBe(false);

    const { body } = await dashboard(admin, 'scope=all&granularity=day');
    expect(body.data.totals).toMatchObject({ requests: 6, errors: 1 });
    expect(body.data.top_keys.map((key) => [key.username, key.name])).toEqual(
      expect.arrayContaining([
        [alice.user.username, 'alice-key'],
        [bob.user.username, 'bob-key'],
      ]),
    );
    const channels = body.data.channels ?? [];
    const good = channels.find((channel) => channel.name === 'good one');
    const broken = channels.find((channel) => channel.name === 'broken one');
    expect(good).toMatchObject({ requests: 5, errors: 0, error_rate: 0 });
    expect(good?.latency_p50_ms).toEqual(expect.any(Number));
    expect(good?.latency_p95_ms).toBeGreaterThanOrEqual(good?.latency_p50_ms ?? 0);
    expect(broken).toMatchObject({ requests: 1, errors: 1, error_rate: 1, latency_p50_ms: null });
    expect(body.data.top_channels?.[0]).toMatchObject({ name: 'good one', requests: 5 });

    // An admin's own scope is their own keys: none here.
    const own = await dashboard(admin, 'scope=self');
    expect(own.body.data.totals.requests).toBe(0);
  });

  it('refuses reversed, too long and malformed ranges, naming the problem', async () => {
    const now = Math.floor(Date.now() / 1000);
    const cases: Array<[string, string]> = [
      [`start=${now}&end=${now - 3600}`, 'start must be before end'],
      [`start=${now}&end=${now}`, 'start must be before end'],
      [`start=${now - 40 * 86_400}&end=${now}&granularity=hour`, 'at most 31 days'],
      [`start=${now - 400 * 86_400}&end=${now}&granularity=day`, 'at most 366 days'],
      ['granularity=week', 'granularity must be hour or day'],
      ['scope=everyone', 'scope must be self or all'],
      ['start=yesterday', 'start must be a whole number'],
      ['end=-5', 'end must not be negative'],
    ];
    for (const [query, message] of cases) {
      const { body } = await dashboard(alice, query);
      expect(body, query).toMatchObject({ success: false, message: expect.stringContaining(message) });
    }
    const anonymous = await kit.test.app.inject({ method: 'GET', url: '/api/dashboard' });
    expect(anonymous.statusCode).toBe(401);
  });
});
