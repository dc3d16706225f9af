import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus, LogType, Role, type Channel } from '@gatehouse/shared';
import type { OptionKey } from '../src/options/option-defaults';
import { circuitStates } from '../src/relay/channel-breaker';
import { startOpenAIUpstream, type OpenAIUpstream, type UpstreamBehaviour } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';
import { createUserSession, envelope, type Session } from './test-app';

let kit: RelayKit;
let admin: Session;
const upstreams: OpenAIUpstream[] = [];
let modelCounter = 0;

beforeAll(async () => {
  kit = await startRelayKit();
  admin = await createUserSession(kit.test, { role: Role.admin });
});
afterAll(async () => {
  await kit.close();
});
afterEach(async () => {
  await Promise.all(upstreams.splice(0).map((upstream) => upstream.close()));
});

async function setOptions(values: Partial<Record<OptionKey, string>>) {
  for (const [key, value] of Object.entries(values) as Array<[OptionKey, string]>) {
    await kit.test.context.options.set(key, value);
  }
}

interface Route {
  name: string;
  behaviour?: UpstreamBehaviour;
  priority: number;
}

/** A fresh model served by one channel per route, each on its own upstream. */
async function serveModel(routes: Route[]) {
  modelCounter += 1;
  const model = `resilience-model-${modelCounter}`;
  const ratios = JSON.parse(kit.test.context.options.get('ModelRatio')) as Record<string, number>;
  await kit.test.context.options.set('ModelRatio', JSON.stringify({ ...ratios, [model]: 1 }));
  const served: Array<{ upstream: OpenAIUpstream; channelId: number }> = [];
  for (const route of routes) {
    const upstream = await startOpenAIUpstream(route.name, route.behaviour ?? {});
    upstreams.push(upstream);
    const channelId = await kit.createChannel({
      upstream,
      models: model,
      priority: route.priority,
      name: `${route.name}-${modelCounter}`,
      key: `sk-secret-of-${route.name}-0123456789`,
    });
    served.push({ upstream, channelId });
  }
  return { model, served };
}

async function newCaller() {
  const user = await kit.createUser({ quota: 1_000_000 });
  const { key } = await kit.createKey(user.id);
  return { user, key, client: kit.client(key) };
}

const ask = (model: string) => ({ model, messages: [{ role: 'user' as const, content: 'hi' }] });
const serverError = { error: { status: 500, message: 'upstream exploded', type: 'server_error' } };
const received = (served: Array<{ upstream: OpenAIUpstream }>) =>
  served.map(({ upstream }) => upstream.received.length);

/** The channel as the admin's channel list answers it. */
async function listedChannel(id: number): Promise<Channel> {
  const response = await kit.test.app.inject({
    method: 'GET',
    url: '/api/channel/?p=0&size=100',
    headers: admin.headers,
  });
  const channel = envelope<Channel[]>(response).data.find((candidate) => candidate.id === id);
  if (!channel) throw new Error(`channel ${id} is not in the list`);
  return channel;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('circuit breaker', () => {
  it('opens after consecutive failures: later requests go to the other channel without touching it', async () => {
    await setOptions({ RetryTimes: '1', CircuitBreakerThreshold: '2', CircuitBreakerCooldown: '600' });
    const { model, served } = await serveModel([
      { name: 'flaky', behaviour: serverError, priority: 10 },
      { name: 'steady', behaviour: { delayMs: 20 }, priority: 0 },
    ]);
    const { client } = await newCaller();
    for (let index = 0; index < 2; index += 1) {
      const completion = await client.chat.completions.create(ask(model));
      expect(completion.choices[0].message.content).toBe('Hello from steady');
    }
    expect(received(served)).toEqual([2, 2]);
    for (let index = 0; index < 3; index += 1) await client.chat.completions.create(ask(model));
    expect(received(served)).toEqual([2, 5]);

    const flaky = await listedChannel(served[0].channelId);
    expect(flaky.health).toMatchObject({ state: 'open', model, requests: 2, error_rate: 1 });
    expect(flaky.health?.until).toBeGreaterThan(Date.now() / 1000 + 500);
    expect(flaky.health?.reason).toContain('upstream exploded');
    const steady = await listedChannel(served[1].channelId);
    expect(steady.health).toMatchObject({ state: 'closed', requests: 5, error_rate: 0, window_seconds: 300 });
    expect(steady.health?.latency_ms).toBeGreaterThanOrEqual(20);
  });

  it('after the cool-down lets exactly one probe through, and its success closes the circuit', async () => {
    await setOptions({ RetryTimes: '1', CircuitBreakerThreshold: '2', CircuitBreakerCooldown: '0.3' });
    const { model, served } = await serveModel([
      { name: 'recovering', behaviour: serverError, priority: 10 },
      { name: 'fallback', priority: 0 },
    ]);
    const { client } = await newCaller();
    for (let index = 0; index < 2; index += 1) await client.chat.completions.create(ask(model));
    expect((await listedChannel(served[0].channelId)).health?.state).toBe('open');
    // The upstream heals, slowly: a second request arrives while the probe is still out.
    served[0].upstream.behaviour = { delayMs: 300 };
    await sleep(400);
    const answers = await Promise.all([
      client.chat.completions.create(ask(model)),
      sleep(50).then(() => client.chat.completions.create(ask(model))),
    ]);
    expect(answers.map((answer) => answer.choices[0].message.content)).toEqual([
      'Hello from recovering',
      'Hello from fallback',
    ]);
    expect(received(served)).toEqual([3, 3]);
    expect((await listedChannel(served[0].channelId)).health?.state).toBe('closed');
    await client.chat.completions.create(ask(model));
    expect(received(served)).toEqual([4, 3]);
  });

  it('a failed probe opens the circuit again', async () => {
    await setOptions({ RetryTimes: '1', CircuitBreakerThreshold: '1', CircuitBreakerCooldown: '0.2' });
    const { model, served } = await serveModel([
      { name: 'still-down', behaviour: serverError, priority: 10 },
      { name: 'other', priority: 0 },
    ]);
    const { client } = await newCaller();
    await client.chat.completions.create(ask(model));
    await sleep(300);
    await client.chat.completions.create(ask(model));
    expect(received(served)).toEqual([2, 2]);
    await client.chat.completions.create(ask(model));
    expect(received(served)).toEqual([2, 3]);
    expect((await listedChannel(served[0].channelId)).health?.state).toBe('open');
  });
});

describe('upstream 429 with Retry-After', () => {
  it('rests the channel until then and fails over to the next one meanwhile', async () => {
    await setOptions({ RetryTimes: '1', CircuitBreakerThreshold: '5', CircuitBreakerCooldown: '30' });
    const { model, served } = await serveModel([
      {
        name: 'limited',
        behaviour: {
          error: {
            status: 429,
            message: 'Rate limit reached',
            type: 'requests',
            headers: { 'retry-after': '120' },
          },
        },
        priority: 10,
      },
      { name: 'spare', priority: 0 },
    ]);
    const { client } = await newCaller();
    for (let index = 0; index < 3; index += 1) {
      expect((await client.chat.completions.create(ask(model))).choices[0].message.content).toBe(
        'Hello from spare',
      );
    }
    expect(received(served)).toEqual([1, 3]);
    const limited = await listedChannel(served[0].channelId);
    expect(limited.health).toMatchObject({ state: 'resting', model, reason: 'Rate limit reached' });
    expect(limited.health?.until).toBeGreaterThan(Date.now() / 1000 + 100);
  });

  it('answers 503 with Retry-After in the client protocol when every channel of the model rests', async () => {
    await setOptions({ RetryTimes: '1', CircuitBreakerMaxCooldown: '600' });
    const { model, served } = await serveModel([
      {
        name: 'only',
        behaviour: {
          error: {
            status: 429,
            message: 'Too many requests',
            type: 'requests',
            headers: { 'retry-after-ms': '45000' },
          },
        },
        priority: 0,
      },
    ]);
    const { key, user } = await newCaller();
    const call = (path: string, body: unknown) =>
      fetch(`${kit.gatewayUrl}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'anthropic-version': '2023-06-01',
        },
        body: JSON.stringify(body),
      });
    const first = await call('/v1/chat/completions', ask(model));
    expect(first.status).toBe(429);
    const second = await call('/v1/chat/completions', ask(model));
    expect(second.status).toBe(503);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(30);
    expect(await second.json()).toMatchObject({
      error: { code: 'channels_cooling_down', type: 'server_error' },
    });
    const anthropic = await call('/v1/messages', { ...ask(model), max_tokens: 10 });
    expect(anthropic.status).toBe(503);
    expect(anthropic.headers.get('retry-after')).not.toBeNull();
    expect(await anthropic.json()).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
    expect(received(served)).toEqual([1]);
    await kit.settle();
    expect(await kit.userQuota(user.id)).toBe(1_000_000);
  });
});

describe('first-token timeout for streams', () => {
  it('cuts a silent upstream before anything reached the client and streams the next channel, billed once', async () => {
    await setOptions({ RetryTimes: '1', StreamFirstTokenTimeout: '0.3', CircuitBreakerThreshold: '5' });
    const { model, served } = await serveModel([
      { name: 'mute', behaviour: { firstEventDelayMs: 10_000 }, priority: 10 },
      { name: 'talker', priority: 0 },
    ]);
    const { client, user } = await newCaller();
    try {
      const stream = await client.chat.completions.create({
        ...ask(model),
        stream: true,
        stream_options: { include_usage: true },
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
      expect(text).toBe('Hello from talker');
      await expect.poll(() => served[0].upstream.streamsCutByClient).toBe(1);
      expect(received(served)).toEqual([1, 1]);
      await kit.settle();
      const logs = await kit.test.context.db
        .selectFrom('logs')
        .selectAll()
        .where('type', '=', LogType.consume)
        .where('user_id', '=', user.id)
        .execute();
      expect(logs).toHaveLength(1);
      expect(logs[0].channel_id).toBe(served[1].channelId);
      expect(await kit.userQuota(user.id)).toBe(1_000_000 - logs[0].quota);
      const mute = await listedChannel(served[0].channelId);
      expect(mute.health).toMatchObject({ requests: 1, error_rate: 1 });
      const [circuit] = circuitStates(kit.test.context).filter(
        (candidate) => candidate.channelId === served[0].channelId,
      );
      expect(circuit).toMatchObject({ model, state: 'closed', consecutiveFailures: 1 });
      expect(circuit.reason).toContain('sent nothing of its stream within 0.3 s');
    } finally {
      await setOptions({ StreamFirstTokenTimeout: '0' });
    }
  });
});

describe('refused channel credentials', () => {
  it('marks the channel auth-failed with the upstream reason in the channel list, and a success clears it', async () => {
    await setOptions({ RetryTimes: '1', CircuitBreakerThreshold: '1', CircuitBreakerCooldown: '0.2' });
    const { model, served } = await serveModel([
      {
        name: 'revoked',
        behaviour: {
          error: {
            status: 401,
            message: 'Incorrect API key provided',
            type: 'invalid_request_error',
            code: 'invalid_api_key',
          },
        },
        priority: 10,
      },
      { name: 'backup', priority: 0 },
    ]);
    const { client } = await newCaller();
    expect((await client.chat.completions.create(ask(model))).choices[0].message.content).toBe(
      'Hello from backup',
    );
    await expect
      .poll(async () => (await listedChannel(served[0].channelId)).auth_failed_reason)
      .toContain('Incorrect API key provided');
    const revoked = await listedChannel(served[0].channelId);
    expect(revoked.status).toBe(ChannelStatus.enabled);
    expect(revoked.health).toMatchObject({ state: 'auth_failed' });
    expect(revoked.health?.reason).toContain('Incorrect API key provided');
    expect(revoked.auth_failed_time).toBeGreaterThan(0);
    // Refused credentials count as failures of the channel: past the threshold the next request skips it.
    await client.chat.completions.create(ask(model));
    expect(received(served)).toEqual([1, 2]);

    // The administrator fixes the key upstream: the probe after the cool-down succeeds and clears the mark.
    served[0].upstream.behaviour = {};
    await sleep(300);
    expect((await client.chat.completions.create(ask(model))).choices[0].message.content).toBe(
      'Hello from revoked',
    );
    await expect.poll(async () => (await listedChannel(served[0].channelId)).auth_failed_reason).toBe('');
    expect((await listedChannel(served[0].channelId)).health?.state).toBe('closed');
  });

  it('disables the channel with the reason when automatic disabling is on', async () => {
    await setOptions({ RetryTimes: '1', AutomaticDisableChannelEnabled: 'true' });
    try {
      const { model, served } = await serveModel([
        {
          name: 'forbidden',
          behaviour: {
            error: { status: 403, message: 'Your account is not allowed', type: 'permission_error' },
          },
          priority: 10,
        },
        { name: 'allowed', priority: 0 },
      ]);
      const { client } = await newCaller();
      await client.chat.completions.create(ask(model));
      await expect
        .poll(async () => (await listedChannel(served[0].channelId)).status)
        .toBe(ChannelStatus.autoDisabled);
      expect((await listedChannel(served[0].channelId)).auth_failed_reason).toContain(
        'Your account is not allowed',
      );
    } finally {
      await setOptions({ AutomaticDisableChannelEnabled: 'false' });
    }
  });
});
