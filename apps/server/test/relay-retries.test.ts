import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus, LogType } from '@gatehouse/shared';
import { startOpenAIUpstream, type OpenAIUpstream, type UpstreamBehaviour } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';

let kit: RelayKit;
const upstreams: OpenAIUpstream[] = [];
let modelCounter = 0;

beforeAll(async () => {
  kit = await startRelayKit();
});
afterAll(async () => {
  await kit.close();
});
afterEach(async () => {
  await Promise.all(upstreams.splice(0).map((upstream) => upstream.close()));
});

interface Route {
  name: string;
  behaviour?: UpstreamBehaviour;
  priority?: number;
  baseUrl?: string;
}

/** A fresh model served by one channel per route, each on its own upstream; answers the model's name. */
async function serveModel(routes: Route[]) {
  modelCounter += 1;
  const model = `retry-model-${modelCounter}`;
  const ratios = JSON.parse(kit.test.context.options.get('ModelRatio')) as Record<string, number>;
  await kit.test.context.options.set('ModelRatio', JSON.stringify({ ...ratios, [model]: 1 }));
  const served = [];
  for (const route of routes) {
    const upstream = await startOpenAIUpstream(route.name, route.behaviour ?? {});
    upstreams.push(upstream);
    const channelId = await kit.createChannel({
      upstream,
      baseUrl: route.baseUrl,
      models: model,
      priority: route.priority ?? 0,
      name: route.name,
      key: `sk-secret-of-${route.name}-0123456789`,
    });
    served.push({ upstream, channelId });
  }
  return { model, served };
}

async function newCaller(quota = 1_000_000) {
  const user = await kit.createUser({ quota });
  const { key } = await kit.createKey(user.id);
  return { user, client: kit.client(key) };
}

const ask = (model: string) => ({ model, messages: [{ role: 'user' as const, content: 'hi' }] });
const serverError = { error: { status: 500, message: 'upstream exploded', type: 'server_error' } };

describe('retries across channels', () => {
  it('retries a 500 on the next priority and bills once, on the channel that answered', async () => {
    await kit.test.context.options.set('RetryTimes', '2');
    const { model, served } = await serveModel([
      { name: 'first', behaviour: serverError, priority: 10 },
      { name: 'second', priority: 0 },
    ]);
    const { user, client } = await newCaller();
    const completion = await client.chat.completions.create(ask(model));
    expect(completion.choices[0].message.content).toBe('Hello from second');
    expect(served.map(({ upstream }) => upstream.received.length)).toEqual([1, 1]);
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
  });

  it('retries 429, timeouts of the top priority first, and never the same channel twice', async () => {
    await kit.test.context.options.set('RetryTimes', '5');
    const { model, served } = await serveModel([
      {
        name: 'busy-a',
        behaviour: { error: { status: 429, message: 'slow down', type: 'requests' } },
        priority: 5,
      },
      { name: 'busy-b', behaviour: { error: { status: 503, message: 'overloaded' } }, priority: 5 },
      { name: 'low', behaviour: serverError, priority: 1 },
    ]);
    const { client } = await newCaller();
    await expect(client.chat.completions.create(ask(model))).rejects.toMatchObject({ status: 500 });
    expect(served.map(({ upstream }) => upstream.received.length)).toEqual([1, 1, 1]);
  });

  it('does not retry a 400 about the request, and passes its message on', async () => {
    await kit.test.context.options.set('RetryTimes', '3');
    const { model, served } = await serveModel([
      {
        name: 'strict',
        behaviour: {
          error: { status: 400, message: "'messages' is too long", code: 'context_length_exceeded' },
        },
        priority: 5,
      },
      { name: 'spare', priority: 0 },
    ]);
    const { client } = await newCaller();
    const error = await client.chat.completions.create(ask(model)).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 400, code: 'context_length_exceeded' });
    expect(String((error as Error).message)).toContain("'messages' is too long");
    expect(served[1].upstream.received).toHaveLength(0);
  });

  it('stops after RetryTimes and refunds the whole reservation', async () => {
    await kit.test.context.options.set('RetryTimes', '0');
    const { model, served } = await serveModel([
      { name: 'down', behaviour: serverError, priority: 1 },
      { name: 'unused', priority: 0 },
    ]);
    const { user, client } = await newCaller(500_000);
    await expect(client.chat.completions.create(ask(model))).rejects.toMatchObject({ status: 500 });
    expect(served[1].upstream.received).toHaveLength(0);
    await kit.settle();
    expect(await kit.userQuota(user.id)).toBe(500_000);
  });

  it('retries connection errors on another channel', async () => {
    await kit.test.context.options.set('RetryTimes', '1');
    const { model } = await serveModel([
      { name: 'gone', baseUrl: 'http://127.0.0.1:9', priority: 1 },
      { name: 'alive', priority: 0 },
    ]);
    const { client } = await newCaller();
    const completion = await client.chat.completions.create(ask(model));
    expect(completion.choices[0].message.content).toBe('Hello from alive');
  });

  it('retries a stream that failed before its first byte', async () => {
    await kit.test.context.options.set('RetryTimes', '1');
    const { model } = await serveModel([
      { name: 'hangup', behaviour: { disconnect: true }, priority: 1 },
      { name: 'steady', priority: 0 },
    ]);
    const { client } = await newCaller();
    const stream = await client.chat.completions.create({ ...ask(model), stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('Hello from steady');
  });

  it('logs every failed attempt and the time to the first byte of a streamed answer, for the log detail', async () => {
    await kit.test.context.options.set('RetryTimes', '2');
    const { model, served } = await serveModel([
      { name: 'broken', behaviour: serverError, priority: 2 },
      { name: 'hangs-up', behaviour: { disconnect: true }, priority: 1 },
      { name: 'answers', priority: 0 },
    ]);
    const { user, client } = await newCaller();
    const stream = await client.chat.completions.create({ ...ask(model), stream: true });
    for await (const chunk of stream) void chunk;
    await kit.settle();
    const [log] = await kit.test.context.db
      .selectFrom('logs')
      .selectAll()
      .where('type', '=', LogType.consume)
      .where('user_id', '=', user.id)
      .execute();
    expect(log.channel_id).toBe(served[2].channelId);
    const retries = JSON.parse(log.retries) as Array<{ channel: number; error: string }>;
    expect(retries.map((retry) => retry.channel)).toEqual([served[0].channelId, served[1].channelId]);
    expect(retries[0].error).toMatch(/upstream exploded|500/);
    expect(retries[1].error).not.toBe('');
    expect(log.first_token_ms).toBeGreaterThan(0);
    expect(log.first_token_ms).toBeLessThanOrEqual(log.elapsed_time + 1);
  });

  it('ends a stream broken mid-answer with an error event and bills what was produced', async () => {
    await kit.test.context.options.set('RetryTimes', '1');
    const { model, served } = await serveModel([
      { name: 'flaky', behaviour: { breakStreamAfterChunks: 2, streamUsage: 'never' }, priority: 1 },
      { name: 'never-used', priority: 0 },
    ]);
    const { user, client } = await newCaller();
    const stream = await client.chat.completions.create({ ...ask(model), stream: true });
    let text = '';
    const read = async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    };
    await expect(read()).rejects.toThrow(/interrupted/);
    expect(text).toBe('Hello from');
    expect(served[1].upstream.received).toHaveLength(0);
    await kit.settle();
    const log = await kit.test.context.db
      .selectFrom('logs')
      .selectAll()
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(log.completion_tokens).toBe(2);
    expect(log.content).toContain('upstream stream interrupted');
  });
});

describe('channel health', () => {
  it('disables a channel whose key the upstream rejects, logs why, and serves from another', async () => {
    await kit.test.context.options.set('RetryTimes', '1');
    await kit.test.context.options.set('AutomaticDisableChannelEnabled', 'true');
    const { model, served } = await serveModel([
      {
        name: 'revoked',
        behaviour: {
          error: {
            status: 401,
            message: 'Incorrect API key provided: sk-secret-of-revoked-0123456789',
            type: 'invalid_request_error',
            code: 'invalid_api_key',
          },
        },
        priority: 1,
      },
      { name: 'healthy', priority: 0 },
    ]);
    const { client } = await newCaller();
    const completion = await client.chat.completions.create(ask(model));
    expect(completion.choices[0].message.content).toBe('Hello from healthy');
    const dead = served[0].channelId;
    await expect
      .poll(async () => {
        const row = await kit.test.context.db
          .selectFrom('channels')
          .select('status')
          .where('id', '=', dead)
          .executeTakeFirst();
        return row?.status;
      })
      .toBe(ChannelStatus.autoDisabled);
    const abilities = await kit.test.context.db
      .selectFrom('abilities')
      .select('enabled')
      .where('channel_id', '=', dead)
      .execute();
    expect(abilities.every((ability) => ability.enabled === 0)).toBe(true);
    const manageLog = await kit.test.context.db
      .selectFrom('logs')
      .select('content')
      .where('type', '=', LogType.manage)
      .where('content', 'like', '%revoked%')
      .executeTakeFirstOrThrow();
    expect(manageLog.content).toContain('disabled automatically');
    expect(manageLog.content).not.toContain('0123456789');
    // The next request goes straight to the healthy channel.
    await client.chat.completions.create(ask(model));
    expect(served[0].upstream.received).toHaveLength(1);
  });

  it('never shows a channel key to the client, and keeps the channel when auto-disable is off', async () => {
    await kit.test.context.options.set('RetryTimes', '0');
    await kit.test.context.options.set('AutomaticDisableChannelEnabled', 'false');
    const { model, served } = await serveModel([
      {
        name: 'leaky',
        behaviour: {
          error: {
            status: 401,
            message:
              'Incorrect API key provided: sk-secret-of-leaky-0123456789 at https://admin:hunter2@internal.example/v1?key=abc',
            code: 'invalid_api_key',
          },
        },
      },
    ]);
    const { client } = await newCaller();
    const error = (await client.chat.completions.create(ask(model)).catch((caught: unknown) => caught)) as {
      status: number;
      message: string;
      code: string;
    };
    expect(error.status).toBe(502);
    expect(error.code).toBe('channel_auth_failed');
    expect(error.message).not.toContain('0123456789');
    expect(error.message).not.toContain('hunter2');
    expect(error.message).not.toContain('key=abc');
    expect(error.message).toContain(
      "The OpenAI channel's credentials were refused by the upstream (HTTP 401)",
    );
    const row = await kit.test.context.db
      .selectFrom('channels')
      .select('status')
      .where('id', '=', served[0].channelId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe(ChannelStatus.enabled);
  });
});

describe('timeouts', () => {
  it('gives up on an upstream slower than RELAY_TIMEOUT and retries elsewhere', async () => {
    const slowKit = await startRelayKit({ RELAY_TIMEOUT: '1' });
    const slow = await startOpenAIUpstream('slow', { delayMs: 2500 });
    const quick = await startOpenAIUpstream('quick');
    upstreams.push(slow, quick);
    try {
      await slowKit.test.context.options.set('RetryTimes', '1');
      await slowKit.createChannel({ upstream: slow, models: 'gpt-4o-mini', priority: 1 });
      await slowKit.createChannel({ upstream: quick, models: 'gpt-4o-mini', priority: 0 });
      const user = await slowKit.createUser();
      const client = slowKit.client((await slowKit.createKey(user.id)).key);
      const startedAt = Date.now();
      const completion = await client.chat.completions.create(ask('gpt-4o-mini'));
      expect(completion.choices[0].message.content).toBe('Hello from quick');
      expect(Date.now() - startedAt).toBeLessThan(2400);
      await slowKit.test.context.options.set('RetryTimes', '0');
      slow.received.length = 0;
      await slowKit.test.context.db.deleteFrom('abilities').where('priority', '=', 0).execute();
      slowKit.test.context.events.emit('channelsChanged');
      await expect(client.chat.completions.create(ask('gpt-4o-mini'))).rejects.toMatchObject({
        status: 504,
        code: 'upstream_timeout',
      });
    } finally {
      await slowKit.close();
    }
  });
});
