import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChannelStatus, ChannelType, LogType } from '@gatehouse/shared';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';

/**
 * The translated lane end to end, with the `openai` SDK as the client. Until a vendor with another protocol
 * lands, Anthropic channels here get a tiny adapter that says it speaks Anthropic Messages, so every OpenAI
 * client is translated: canonical request → its translator (OpenAI's own, against the OpenAI stand-in) →
 * canonical answer and chunks → the OpenAI codec. It also derives an access token, refuses n > 1 and signs
 * in with the token, to prove the credential cache and the refusals.
 */
const tiny = vi.hoisted(() => ({ prepareCalls: 0, failNextPrepare: false, prepareDelayMs: 0 }));

vi.mock('../src/providers/provider-registry', async (importOriginal) => {
  const registry = await importOriginal<typeof import('../src/providers/provider-registry')>();
  const { createOpenAICompatibleAdapter, prefixedLayout } =
    await import('../src/providers/openai-compatible/openai-compatible-adapter');
  const { UnsupportedOptionError, UpstreamReportedError } = await import('../src/canonical/translation');
  const openAI = createOpenAICompatibleAdapter(prefixedLayout('tiny', '/v1'));
  type Adapter = import('../src/providers/provider-types').ProviderAdapter;
  const adapter: Adapter = {
    wireFormat: 'tiny',
    protocol: 'anthropic-messages',
    translator: {
      async buildRequest(input) {
        if ((input.request.n ?? 1) > 1)
          throw new UnsupportedOptionError('Tiny', 'n > 1', 'it answers one choice');
        if (input.channel.key === 'unreadable-key') throw new Error('the stored key is not valid JSON');
        const request = await openAI.translator.buildRequest(input);
        return {
          ...request,
          headers: { ...request.headers, authorization: `Bearer ${input.channel.accessToken}` },
        };
      },
      readResponse(body) {
        // A vendor that reports failures inside a 200 answer (as Baidu and Tencent Cloud do).
        const text = body.toString();
        if (text.startsWith('{"reported"')) {
          const { reported } = JSON.parse(text) as { reported: { kind: 'rate_limit'; message: string } };
          throw new UpstreamReportedError('Tiny', { ...reported, type: 'tiny_error', code: 'E1' });
        }
        return openAI.translator.readResponse(body);
      },
      createStreamDecoder: () => openAI.translator.createStreamDecoder(),
    },
    readError: (body, status) => openAI.readError(body, status),
    async prepareCredential(channel) {
      tiny.prepareCalls += 1;
      await new Promise((resolve) => setTimeout(resolve, tiny.prepareDelayMs));
      if (tiny.failNextPrepare) {
        tiny.failNextPrepare = false;
        throw new Error('the token endpoint did not answer');
      }
      return { accessToken: `token-${tiny.prepareCalls}-${channel.key}`, expiresAt: Date.now() + 3_600_000 };
    },
  };
  const vendor = { ...registry.channelProviders[ChannelType.anthropic], isSupported: true as const, adapter };
  return {
    ...registry,
    findChannelProvider: (type: number) =>
      type === ChannelType.anthropic ? vendor : registry.findChannelProvider(type),
  };
});

let kit: RelayKit;
let upstream: OpenAIUpstream;
let channelId: number;

beforeAll(async () => {
  upstream = await startOpenAIUpstream('alpha');
  kit = await startRelayKit();
  channelId = await kit.createChannel({
    upstream,
    type: ChannelType.anthropic,
    key: 'tiny-key',
    models: 'tiny-model,tiny-alias',
    modelMapping: { 'tiny-alias': 'tiny-model-2025' },
  });
  await kit.test.context.options.set('ModelRatio', JSON.stringify({ 'tiny-model': 1, 'tiny-alias': 1 }));
});
afterAll(async () => {
  await kit.close();
  await upstream.close();
});
beforeEach(async () => {
  upstream.behaviour = {};
  upstream.received.length = 0;
  await kit.test.context.options.set('RetryTimes', '0');
});

async function newClient(quota = 1_000_000) {
  const user = await kit.createUser({ quota });
  const { key } = await kit.createKey(user.id);
  return { user, key, client: kit.client(key) };
}

async function lastLog() {
  await kit.settle();
  return kit.test.context.db
    .selectFrom('logs')
    .selectAll()
    .where('type', '=', LogType.consume)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
}

describe('the translated lane', () => {
  it('answers a JSON chat through the translator and bills the usage it reported', async () => {
    const { user, client } = await newClient();
    upstream.behaviour = { usage: { prompt: 100, completion: 20 } };
    const completion = await client.chat.completions.create({
      model: 'tiny-model',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello' },
      ],
      max_tokens: 50,
    });
    expect(completion.choices[0].message.content).toBe('Hello from alpha');
    expect(completion.usage).toMatchObject({ prompt_tokens: 100, completion_tokens: 20 });
    const sent = upstream.received[0];
    expect(sent.json).toEqual({
      model: 'tiny-model',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello' },
      ],
      max_tokens: 50,
    });
    expect(sent.headers.authorization).toMatch(/^Bearer token-\d+-tiny-key$/);
    expect(await lastLog()).toMatchObject({ user_id: user.id, prompt_tokens: 100, completion_tokens: 20 });
  });

  it('maps the model and drops fields the vendor protocol does not have', async () => {
    const { key } = await newClient();
    const response = await fetch(`${kit.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'tiny-alias',
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] },
        ],
        some_vendor_flag: true,
      }),
    });
    expect(response.status).toBe(200);
    expect(upstream.received[0].json).toEqual({
      model: 'tiny-model-2025',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
  });

  it('streams canonical chunks back as OpenAI chunks, with the usage chunk only when asked', async () => {
    const { client, key } = await newClient();
    upstream.behaviour = { words: ['Hel', 'lo', '!'], usage: { prompt: 9, completion: 3 } };
    const stream = await client.chat.completions.create({
      model: 'tiny-model',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: unknown = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('Hello!');
    expect(usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 });
    expect(upstream.received[0].json?.stream_options).toEqual({ include_usage: true });

    const raw = await fetch(`${kit.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'tiny-model',
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
      }),
    });
    const events = await raw.text();
    expect(events).not.toContain('"choices":[]');
    expect(events.endsWith('data: [DONE]\n\n')).toBe(true);
    const log = await lastLog();
    expect(log).toMatchObject({ prompt_tokens: 9, completion_tokens: 3, is_stream: 1 });
  });

  it('streams tool calls', async () => {
    const { client } = await newClient();
    const stream = await client.chat.completions.create({
      model: 'tiny-model',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
      stream: true,
    });
    let name = '';
    let args = '';
    for await (const chunk of stream) {
      for (const call of chunk.choices[0]?.delta.tool_calls ?? []) {
        name += call.function?.name ?? '';
        args += call.function?.arguments ?? '';
      }
    }
    expect(name).toBe('get_weather');
    expect(JSON.parse(args)).toEqual({ city: 'Paris' });
  });
});

describe('refusals and failures on the translated lane', () => {
  it('refuses an option the vendor lacks with 400 naming vendor and option, before sending, charging nothing', async () => {
    const { user, client } = await newClient(500_000);
    const error = (await client.chat.completions
      .create({ model: 'tiny-model', messages: [{ role: 'user', content: 'hi' }], n: 2 })
      .catch((caught: unknown) => caught)) as { status: number; code: string; message: string };
    expect(error.status).toBe(400);
    expect(error.code).toBe('unsupported_option');
    expect(error.message).toContain('Tiny does not support n > 1');
    expect(error.message).toContain('Anthropic Claude');
    expect(upstream.received).toHaveLength(0);
    await kit.settle();
    expect(await kit.userQuota(user.id)).toBe(500_000);
  });

  it.each([
    ['a cut JSON answer', { raw: { body: '{"id":"x","choices":[{"message":' } }, false],
    ['an answer without choices', { raw: { body: '{"id":"x","object":"chat.completion"}' } }, false],
    [
      'a stream event that is not JSON',
      { raw: { contentType: 'text/event-stream', body: 'data: {"id":"x","choices":[{\n\n' } },
      true,
    ],
  ])('answers %s with 502 naming the channel type and refunds', async (_case, behaviour, stream) => {
    const { user, client } = await newClient(500_000);
    upstream.behaviour = behaviour;
    const error = (await client.chat.completions
      .create({ model: 'tiny-model', messages: [{ role: 'user', content: 'hi' }], max_tokens: 100, stream })
      .then(async (answer) => {
        if (stream) for await (const _chunk of answer as AsyncIterable<unknown>) void _chunk;
      })
      .catch((caught: unknown) => caught)) as { status: number; code: string; message: string };
    expect(error.status).toBe(502);
    expect(error.code).toBe('bad_upstream_answer');
    expect(error.message).toContain('Anthropic Claude');
    await kit.settle();
    expect(await kit.userQuota(user.id)).toBe(500_000);
  });

  it('answers refused channel credentials with a 502 naming the channel type, and disables the channel', async () => {
    const refused = await kit.createChannel({
      upstream,
      type: ChannelType.anthropic,
      key: 'revoked-key',
      models: 'tiny-refused',
    });
    await kit.test.context.options.set(
      'ModelRatio',
      JSON.stringify({ 'tiny-model': 1, 'tiny-alias': 1, 'tiny-refused': 1 }),
    );
    const { user, client } = await newClient(500_000);
    const ask = () =>
      client.chat.completions
        .create({ model: 'tiny-refused', messages: [{ role: 'user', content: 'hi' }] })
        .catch((caught: unknown) => caught) as Promise<{ status: number; code: string; message: string }>;
    const channelStatus = async () =>
      (
        await kit.test.context.db
          .selectFrom('channels')
          .select('status')
          .where('id', '=', refused)
          .executeTakeFirstOrThrow()
      ).status;

    for (const status of [403, 401]) {
      upstream.behaviour = { error: { status, message: 'invalid x-api-key', type: 'authentication_error' } };
      const error = await ask();
      expect(error.status).toBe(502);
      expect(error.code).toBe('channel_auth_failed');
      expect(error.message).toContain(
        `The Anthropic Claude channel's credentials were refused by the upstream (HTTP ${status}): invalid x-api-key`,
      );
      expect(error.message).toContain('your API key is fine');
    }
    // Automatic disabling is off: the channel stays.
    expect(await channelStatus()).toBe(ChannelStatus.enabled);

    await kit.test.context.options.set('AutomaticDisableChannelEnabled', 'true');
    expect((await ask()).code).toBe('channel_auth_failed');
    await expect.poll(channelStatus).toBe(ChannelStatus.autoDisabled);
    await kit.test.context.options.set('AutomaticDisableChannelEnabled', 'false');
    await kit.settle();
    expect(await kit.userQuota(user.id)).toBe(500_000);
  });
});

describe('access tokens derived from the channel key', () => {
  it('prepares one token for twenty concurrent requests and reuses it', async () => {
    await kit.createChannel({
      upstream,
      type: ChannelType.anthropic,
      key: 'fresh-key',
      models: 'tiny-fresh',
    });
    await kit.test.context.options.set(
      'ModelRatio',
      JSON.stringify({ 'tiny-model': 1, 'tiny-alias': 1, 'tiny-refused': 1, 'tiny-fresh': 1 }),
    );
    const { client } = await newClient();
    const before = tiny.prepareCalls;
    tiny.prepareDelayMs = 50;
    const ask = () =>
      client.chat.completions.create({ model: 'tiny-fresh', messages: [{ role: 'user', content: 'hi' }] });
    await Promise.all(Array.from({ length: 20 }, ask));
    await ask();
    tiny.prepareDelayMs = 0;
    expect(tiny.prepareCalls - before).toBe(1);
    const tokens = new Set(upstream.received.map((request) => request.headers.authorization));
    expect(tokens).toEqual(new Set([`Bearer token-${before + 1}-fresh-key`]));
  });

  it('does not remember a failed refresh: the next request gets a token', async () => {
    await kit.createChannel({
      upstream,
      type: ChannelType.anthropic,
      key: 'flaky-key',
      models: 'tiny-flaky',
    });
    await kit.test.context.options.set(
      'ModelRatio',
      JSON.stringify({
        'tiny-model': 1,
        'tiny-alias': 1,
        'tiny-refused': 1,
        'tiny-fresh': 1,
        'tiny-flaky': 1,
      }),
    );
    const { user, client } = await newClient(500_000);
    tiny.failNextPrepare = true;
    const error = (await client.chat.completions
      .create({ model: 'tiny-flaky', messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught)) as { status: number; message: string };
    expect(error.status).toBe(502);
    expect(error.message).toContain('Could not get an access token for the Anthropic Claude channel');
    expect(upstream.received).toHaveLength(0);
    const completion = await client.chat.completions.create({
      model: 'tiny-flaky',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.choices[0].message.content).toBe('Hello from alpha');
    await kit.settle();
    expect(await kit.userQuota(user.id)).toBeLessThan(500_000);
    expect(channelId).toBeGreaterThan(0);
  });
});

describe('failures the relay reads from the adapter', () => {
  async function channelFor(model: string, key: string, priority = 0) {
    const id = await kit.createChannel({
      upstream,
      type: ChannelType.anthropic,
      key,
      models: model,
      priority,
    });
    const ratios = JSON.parse(kit.test.context.options.get('ModelRatio')) as Record<string, number>;
    await kit.test.context.options.set('ModelRatio', JSON.stringify({ ...ratios, [model]: 1 }));
    return id;
  }
  const reportedIn200 = (kind: string, message: string) => ({
    raw: { body: JSON.stringify({ reported: { kind, message } }) },
  });

  it('acts on an error reported in a 200 answer by its kind, with the vendor’s words', async () => {
    await channelFor('tiny-reported', 'reported-key');
    const { user, client } = await newClient(500_000);
    const ask = () =>
      client.chat.completions
        .create({ model: 'tiny-reported', messages: [{ role: 'user', content: 'hi' }] })
        .catch((caught: unknown) => caught) as Promise<{ status: number; code: string; message: string }>;

    upstream.behaviour = reportedIn200('rate_limit', 'QPS limit reached');
    expect(await ask()).toMatchObject({ status: 429, message: expect.stringContaining('QPS limit reached') });
    upstream.behaviour = reportedIn200('invalid_request', 'messages must alternate');
    expect(await ask()).toMatchObject({
      status: 400,
      message: expect.stringContaining('messages must alternate'),
    });
    upstream.behaviour = reportedIn200('authentication', 'access token expired');
    expect(await ask()).toMatchObject({ status: 502, code: 'channel_auth_failed' });
    await kit.settle();
    expect(await kit.userQuota(user.id)).toBe(500_000);
  });

  it('answers a channel key the adapter cannot use as the channel’s setup, not as an unreachable upstream', async () => {
    const broken = await channelFor('tiny-setup', 'unreadable-key', 10);
    const { client } = await newClient();
    const error = (await client.chat.completions
      .create({ model: 'tiny-setup', messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught)) as { status: number; code: string; message: string };
    expect(error).toMatchObject({ status: 502, code: 'channel_misconfigured' });
    expect(error.message).toContain(
      "The Anthropic Claude channel's key or settings cannot be used: the stored key is not valid JSON",
    );
    expect(upstream.received).toHaveLength(0);

    await channelFor('tiny-setup', 'usable-key', 0);
    await kit.test.context.options.set('RetryTimes', '1');
    const completion = await client.chat.completions.create({
      model: 'tiny-setup',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.choices[0].message.content).toBe('Hello from alpha');
    const status = await kit.test.context.db
      .selectFrom('channels')
      .select('status')
      .where('id', '=', broken)
      .executeTakeFirstOrThrow();
    expect(status.status).toBe(ChannelStatus.enabled);
  });

  it('drops an access token the upstream refuses with 401, and the next request gets a new one', async () => {
    await channelFor('tiny-revoked', 'revocable-key');
    const { client } = await newClient();
    const ask = () =>
      client.chat.completions.create({ model: 'tiny-revoked', messages: [{ role: 'user', content: 'hi' }] });
    await ask();
    const first = upstream.received[0].headers.authorization;
    upstream.behaviour = { error: { status: 401, message: 'token revoked', type: 'authentication_error' } };
    await expect(ask()).rejects.toMatchObject({ status: 502, code: 'channel_auth_failed' });
    upstream.behaviour = {};
    await ask();
    const last = upstream.received.at(-1)?.headers.authorization;
    expect(last).toMatch(/^Bearer token-\d+-revocable-key$/);
    expect(last).not.toBe(first);
  });
});
