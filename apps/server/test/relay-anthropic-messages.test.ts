import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChannelType, LogType } from '@gatehouse/shared';
import { startAnthropicStandIn, type AnthropicStandIn } from './support/anthropic-stand-in';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';

/**
 * POST /v1/messages and /v1/messages/count_tokens end to end with `@anthropic-ai/sdk`, on both lanes: a
 * Claude model on an Anthropic channel (the Anthropic stand-in; the client's body passes through) and a GPT
 * model on an OpenAI channel (the OpenAI stand-in; translated through the canonical types and back).
 */
let kit: RelayKit;
let anthropic: AnthropicStandIn;
let openAI: OpenAIUpstream;

const CLAUDE = 'claude-haiku-4-5';
const GPT = 'gpt-4o-mini';

beforeAll(async () => {
  anthropic = await startAnthropicStandIn({ name: 'claude' });
  openAI = await startOpenAIUpstream('gpt');
  kit = await startRelayKit();
  await kit.createChannel({
    type: ChannelType.anthropic,
    baseUrl: anthropic.url,
    key: anthropic.apiKey,
    models: `${CLAUDE},claude-alias`,
    modelMapping: { 'claude-alias': 'claude-haiku-4-5-20251001' },
  });
  await kit.createChannel({ upstream: openAI, models: GPT });
  await kit.test.context.options.set(
    'ModelRatio',
    JSON.stringify({ [CLAUDE]: 0.5, 'claude-alias': 0.5, 'claude-retry-model': 0.5, [GPT]: 0.075 }),
  );
});
afterAll(async () => {
  await kit.close();
  await anthropic.close();
  await openAI.close();
});
beforeEach(async () => {
  anthropic.behaviour = {};
  anthropic.received.length = 0;
  openAI.behaviour = {};
  openAI.received.length = 0;
  await kit.test.context.options.set('RetryTimes', '0');
});

/** What the SDK sent, byte for byte: its fetch records the bodies. */
interface SentRequest {
  url: string;
  headers: Headers;
  body: string;
}

async function newClient(options: { quota?: number; defaultHeaders?: Record<string, string> } = {}) {
  const user = await kit.createUser({ quota: options.quota ?? 10_000_000 });
  const { key } = await kit.createKey(user.id);
  const sent: SentRequest[] = [];
  const client = new Anthropic({
    apiKey: key,
    baseURL: kit.gatewayUrl,
    maxRetries: 0,
    defaultHeaders: options.defaultHeaders,
    fetch: async (url, init) => {
      sent.push({
        url: String(url),
        headers: new Headers(init?.headers),
        body: typeof init?.body === 'string' ? init.body : '',
      });
      return fetch(url, init);
    },
  });
  return { user, key, client, sent };
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

const weatherTool = {
  name: 'get_weather',
  description: 'The weather of a city',
  input_schema: {
    type: 'object' as const,
    properties: { city: { type: 'string' } },
    required: ['city'],
  },
};

const lanes = [
  { lane: 'an Anthropic channel (pass-through)', model: CLAUDE, isNative: true },
  { lane: 'an OpenAI channel (translated)', model: GPT, isNative: false },
] as const;

describe.each(lanes)('an Anthropic client on $lane', ({ model, isNative }) => {
  const expectedText = isNative ? 'Hello from claude' : 'Hello from gpt';

  it('creates a message and is billed the usage the upstream reported', async () => {
    const { user, client, sent } = await newClient();
    if (isNative) anthropic.behaviour = { usage: { input_tokens: 30, output_tokens: 7 } };
    else openAI.behaviour = { usage: { prompt: 30, completion: 7 } };
    const before = await kit.userQuota(user.id);
    const message = await client.messages.create({
      model,
      max_tokens: 100,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Say hello' }],
    });
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: expectedText }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 30, output_tokens: 7 },
    });
    expect(message.id).toMatch(/^msg_/);
    if (isNative) {
      expect(anthropic.received[0].body.toString('utf8')).toBe(sent[0].body);
    } else {
      expect(openAI.received[0].json).toMatchObject({
        model: GPT,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Say hello' },
        ],
        max_tokens: 100,
      });
    }
    const log = await lastLog();
    expect(log).toMatchObject({ model_name: model, prompt_tokens: 30, completion_tokens: 7 });
    expect(log.content).toContain('anthropic-messages client');
    expect(await kit.userQuota(user.id)).toBe(before - log.quota);
    expect(log.quota).toBeGreaterThan(0);
  });

  it('streams the real event sequence, and finalMessage() has the text and the usage', async () => {
    const { client } = await newClient();
    if (isNative) anthropic.behaviour = { usage: { input_tokens: 21, output_tokens: 4 } };
    else openAI.behaviour = { usage: { prompt: 21, completion: 4 } };
    const stream = client.messages.stream({
      model,
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Say hello' }],
    });
    const types: string[] = [];
    let text = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
    }
    const final = await stream.finalMessage();
    expect(text).toBe(expectedText);
    expect(types[0]).toBe('message_start');
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(types).toContain('content_block_start');
    expect(types).toContain('content_block_stop');
    expect(final.content).toEqual(
      [{ type: 'text', text: expectedText, ...(isNative ? {} : {}) }].map((block) =>
        expect.objectContaining(block),
      ),
    );
    expect(final.stop_reason).toBe('end_turn');
    expect(final.usage).toMatchObject({ input_tokens: 21, output_tokens: 4 });
    const log = await lastLog();
    expect(log).toMatchObject({ model_name: model, prompt_tokens: 21, completion_tokens: 4, is_stream: 1 });
  });

  it('does a tool use round trip: tool_use, then the tool_result in the next request', async () => {
    const { client } = await newClient();
    const question = { role: 'user' as const, content: 'What is the weather in Paris?' };
    const first = await client.messages.create({
      model,
      max_tokens: 200,
      tools: [weatherTool],
      messages: [question],
    });
    expect(first.stop_reason).toBe('tool_use');
    const toolUse = first.content.find((block) => block.type === 'tool_use');
    expect(toolUse).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { city: 'Paris' } });
    if (toolUse?.type !== 'tool_use') throw new Error('no tool_use block');
    const second = await client.messages.create({
      model,
      max_tokens: 200,
      tools: [weatherTool],
      messages: [
        question,
        { role: 'assistant', content: first.content },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: '21°C and sunny' }],
        },
      ],
    });
    if (isNative) {
      expect(second.content).toEqual([{ type: 'text', text: expectedText }]);
      const sentBack = anthropic.received[1].json?.messages as Array<{ content: unknown }>;
      expect(sentBack[2].content).toEqual([
        { type: 'tool_result', tool_use_id: toolUse.id, content: '21°C and sunny' },
      ]);
    } else {
      expect(openAI.received[0].json?.tools).toEqual([
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'The weather of a city',
            parameters: weatherTool.input_schema,
          },
        },
      ]);
      expect(openAI.received[1].json?.messages).toEqual([
        { role: 'user', content: 'What is the weather in Paris?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: toolUse.id,
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: toolUse.id, content: '21°C and sunny' },
      ]);
      // The stand-in calls the tool whenever tools are offered.
      expect(second.stop_reason).toBe('tool_use');
    }
  });

  it('streams a tool use as input_json_delta that the SDK assembles into the input', async () => {
    const { client } = await newClient();
    const stream = client.messages.stream({
      model,
      max_tokens: 200,
      tools: [weatherTool],
      tool_choice: { type: 'tool', name: 'get_weather' },
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    });
    const deltas: string[] = [];
    for await (const event of stream) {
      if (event.type === 'content_block_delta') deltas.push(event.delta.type);
    }
    const final = await stream.finalMessage();
    expect(deltas).toContain('input_json_delta');
    expect(final.stop_reason).toBe('tool_use');
    expect(final.content.at(-1)).toMatchObject({
      type: 'tool_use',
      name: 'get_weather',
      input: { city: 'Paris' },
    });
    if (!isNative) {
      expect(openAI.received[0].json?.tool_choice).toEqual({
        type: 'function',
        function: { name: 'get_weather' },
      });
    }
  });

  it('counts tokens without billing or logging', async () => {
    const { user, client } = await newClient();
    await kit.settle();
    const before = await kit.userQuota(user.id);
    const logsBefore = await kit.test.context.db
      .selectFrom('logs')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    const body = {
      model,
      system: 'You are a weather bot.',
      tools: [weatherTool],
      messages: [{ role: 'user' as const, content: 'What is the weather in Paris today?' }],
    };
    const counted = await client.messages.countTokens(body);
    expect(counted.input_tokens).toBeGreaterThan(10);
    if (isNative) {
      expect(anthropic.received).toHaveLength(1);
      expect(anthropic.received[0].url).toBe('/v1/messages/count_tokens');
      expect(anthropic.received[0].json).toEqual(body);
    } else {
      expect(openAI.received).toHaveLength(0);
    }
    await kit.settle();
    expect(await kit.userQuota(user.id)).toBe(before);
    const logsAfter = await kit.test.context.db
      .selectFrom('logs')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(logsAfter.count)).toBe(Number(logsBefore.count));
  });

  it('raises AuthenticationError for a bad key', async () => {
    const client = new Anthropic({ apiKey: 'sk-not-a-key', baseURL: kit.gatewayUrl, maxRetries: 0 });
    const error = await client.messages
      .create({ model, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
    expect((error as InstanceType<typeof Anthropic.AuthenticationError>).error).toMatchObject({
      type: 'error',
      error: { type: 'authentication_error' },
    });
  });

  it('raises RateLimitError when the upstream is rate limited, and charges nothing', async () => {
    const { user, client } = await newClient();
    if (isNative) anthropic.behaviour = { error: { status: 429 } };
    else
      openAI.behaviour = { error: { status: 429, message: 'Rate limit reached', type: 'rate_limit_error' } };
    const before = await kit.userQuota(user.id);
    const error = await client.messages
      .create({ model, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    expect((error as InstanceType<typeof Anthropic.RateLimitError>).error).toMatchObject({
      type: 'error',
      error: { type: 'rate_limit_error' },
    });
    await kit.settle();
    expect(await kit.userQuota(user.id)).toBe(before);
    // The stand-in's 429 says retry-after: 1, so the gateway rests this channel for the model for a second:
    // the next tests would get 503 channels_cooling_down (tested in relay-channel-resilience) until then.
    await new Promise((resolve) => setTimeout(resolve, 1100));
  });

  it('sends an error event when the upstream stream breaks after it started', async () => {
    const { client } = await newClient();
    if (isNative) anthropic.behaviour = { streamErrorAfterEvents: 4 };
    else openAI.behaviour = { breakStreamAfterChunks: 1 };
    const stream = client.messages.stream({
      model,
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const error = await (async () => {
      for await (const event of stream) void event;
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(String((error as Error).message)).toMatch(isNative ? /overloaded/i : /interrupted/i);
  });
});

describe('Anthropic clients: what only the pass-through lane keeps', () => {
  it('brings a cache_control block, unknown fields and a server tool to the Anthropic channel byte for byte', async () => {
    const { client, sent } = await newClient();
    anthropic.behaviour = {
      usage: {
        input_tokens: 5,
        output_tokens: 3,
        cache_creation_input_tokens: 1000,
        cache_read_input_tokens: 2000,
      },
    };
    const message = await client.messages.create({
      model: CLAUDE,
      max_tokens: 100,
      system: [
        {
          type: 'text',
          text: 'A long, cached system prompt.',
          cache_control: { type: 'ephemeral', ttl: '1h' },
        },
      ],
      messages: [
        {
          role: 'user',
          content: [{ type: 'text', text: 'Look it up', cache_control: { type: 'ephemeral' } }],
        },
      ],
      tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 2 }],
      // A field newer than this gateway, as Claude Code sends them.
      ...({ context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] } } as object),
    });
    expect(anthropic.received[0].body.toString('utf8')).toBe(sent[0].body);
    expect(sent[0].body).toContain('"cache_control":{"type":"ephemeral","ttl":"1h"}');
    expect(sent[0].body).toContain('context_management');
    expect(message.usage).toMatchObject({
      input_tokens: 5,
      cache_creation_input_tokens: 1000,
      cache_read_input_tokens: 2000,
    });
    const log = await lastLog();
    expect(log).toMatchObject({ prompt_tokens: 3005, completion_tokens: 3 });
  });

  it('forwards anthropic-beta and anthropic-version to the Anthropic channel, not to an OpenAI one', async () => {
    const { client } = await newClient();
    const betas = ['interleaved-thinking-2025-05-14', 'context-1m-2025-08-07'];
    await client.beta.messages.create({
      model: CLAUDE,
      max_tokens: 10,
      betas,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(anthropic.received[0].headers['anthropic-beta']).toBe(betas.join(','));
    expect(anthropic.received[0].headers['anthropic-version']).toBe('2026-10-21');
    expect(anthropic.received[0].headers['x-api-key']).toBe(anthropic.apiKey);
    expect(anthropic.received[0].headers.authorization).toBeUndefined();
    await client.beta.messages.create({
      model: GPT,
      max_tokens: 10,
      betas,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(openAI.received[0].headers['anthropic-beta']).toBeUndefined();
  });

  it('passes thinking with its signature back to the Anthropic channel unchanged', async () => {
    const { client } = await newClient();
    const question = { role: 'user' as const, content: 'Hello?' };
    const first = await client.messages.create({
      model: CLAUDE,
      max_tokens: 4000,
      thinking: { type: 'enabled', budget_tokens: 2000 },
      messages: [question],
    });
    expect(first.content[0]).toEqual({
      type: 'thinking',
      thinking: 'The user greets me.',
      signature: 'stand-in-signature',
    });
    await client.messages.create({
      model: CLAUDE,
      max_tokens: 4000,
      thinking: { type: 'enabled', budget_tokens: 2000 },
      messages: [question, { role: 'assistant', content: first.content }, { role: 'user', content: 'And?' }],
    });
    const sentBack = anthropic.received[1].json?.messages as Array<{ content: unknown }>;
    expect(sentBack[1].content).toEqual(first.content);
  });

  it('rewrites only the model when the channel maps it', async () => {
    const { sent, client } = await newClient();
    await client.messages.create({
      model: 'claude-alias',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const forwarded = anthropic.received[0].json;
    expect(forwarded).toEqual({
      ...(JSON.parse(sent[0].body) as object),
      model: 'claude-haiku-4-5-20251001',
    });
  });
});

describe('Anthropic clients: the translated lane', () => {
  it('shows an OpenAI-style vendor’s reasoning as a thinking block and drops thinking sent back', async () => {
    const { client } = await newClient();
    openAI.behaviour = {
      raw: {
        body: JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 1,
          model: GPT,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: 'Forty-two.', reasoning_content: 'Let me think.' },
              finish_reason: 'length',
            },
          ],
          usage: {
            prompt_tokens: 9,
            completion_tokens: 4,
            total_tokens: 13,
            prompt_tokens_details: { cached_tokens: 5 },
          },
        }),
      },
    };
    const message = await client.messages.create({
      model: GPT,
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'Question?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Earlier thought.', signature: 'sig-from-claude' },
            { type: 'text', text: 'Earlier answer.' },
          ],
        },
        { role: 'user', content: 'And now?' },
      ],
    });
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'Let me think.', signature: '' },
      { type: 'text', text: 'Forty-two.' },
    ]);
    expect(message.stop_reason).toBe('max_tokens');
    expect(message.usage).toMatchObject({ input_tokens: 4, cache_read_input_tokens: 5, output_tokens: 4 });
    const messages = openAI.received[0].json?.messages as unknown[];
    expect(messages[1]).toEqual({ role: 'assistant', content: 'Earlier answer.' });
  });

  it('drops Anthropic-only parts an OpenAI channel cannot take: cache marks and server tools', async () => {
    const { client } = await newClient();
    const message = await client.messages.create({
      model: GPT,
      max_tokens: 10,
      system: [{ type: 'text', text: 'Cached.', cache_control: { type: 'ephemeral' } }],
      tools: [{ type: 'web_search_20250305', name: 'web_search' }],
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(message.content).toEqual([{ type: 'text', text: 'Hello from gpt' }]);
    const body = openAI.received[0].json ?? {};
    expect(JSON.stringify(body)).not.toContain('cache_control');
    expect(body.tools).toBeUndefined();
  });

  it('keeps Claude Code’s system messages inside the conversation, on either lane', async () => {
    // Claude Code 2.1 sends role "system" turns (beta mid-conversation-system-2026-04-07) for any model it does
    // not know: every model of another vendor. Refusing them stopped the agent at its first request.
    const { client, sent } = await newClient();
    const turns = [
      { role: 'user', content: [{ type: 'text', text: 'say hi' }] },
      { role: 'system', content: 'Available agent types: claude.' },
    ] as unknown as Anthropic.MessageParam[];
    const betas = ['claude-code-20250219', 'mid-conversation-system-2026-04-07'];
    const translated = await client.beta.messages.create({
      model: GPT,
      max_tokens: 10,
      betas,
      system: 'You are Claude Code.',
      messages: turns as Anthropic.Beta.BetaMessageParam[],
    });
    expect(translated.content).toEqual([{ type: 'text', text: 'Hello from gpt' }]);
    expect(openAI.received[0].json?.messages).toEqual([
      { role: 'system', content: 'You are Claude Code.' },
      { role: 'user', content: [{ type: 'text', text: 'say hi' }] },
      { role: 'system', content: 'Available agent types: claude.' },
    ]);
    await client.beta.messages.create({
      model: CLAUDE,
      max_tokens: 10,
      betas,
      system: 'You are Claude Code.',
      messages: turns as Anthropic.Beta.BetaMessageParam[],
    });
    expect(anthropic.received[0].body.toString('utf8')).toBe(sent[1].body);
    expect(anthropic.received[0].headers['anthropic-beta']).toBe(betas.join(','));
  });

  it('retries on another channel of the model, whatever protocol it speaks', async () => {
    await kit.test.context.options.set('RetryTimes', '1');
    const backup = await startOpenAIUpstream('backup');
    const { client } = await newClient();
    const channelId = await kit.createChannel({
      upstream: backup,
      models: 'claude-retry-model',
      priority: 0,
    });
    const anthropicId = await kit.createChannel({
      type: ChannelType.anthropic,
      baseUrl: anthropic.url,
      key: anthropic.apiKey,
      models: 'claude-retry-model',
      priority: 10,
    });
    anthropic.behaviour = { error: { status: 529 } };
    try {
      const message = await client.messages.create({
        model: 'claude-retry-model',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(message.content).toEqual([{ type: 'text', text: 'Hello from backup' }]);
      expect(anthropic.received).toHaveLength(1);
    } finally {
      for (const id of [channelId, anthropicId]) {
        await kit.test.context.db.updateTable('channels').set({ status: 2 }).where('id', '=', id).execute();
      }
      kit.test.context.events.emit('channelsChanged');
      await backup.close();
    }
  });
});

describe('Anthropic clients: errors and the wire', () => {
  it('raises NotFoundError for a model no channel serves', async () => {
    const { client } = await newClient();
    const error = await client.messages
      .create({ model: 'claude-nobody-serves', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
    expect((error as InstanceType<typeof Anthropic.NotFoundError>).error).toMatchObject({
      error: { type: 'not_found_error' },
    });
  });

  it('answers a body without max_tokens 400 naming the field, in Anthropic’s shape', async () => {
    const { key } = await newClient();
    const response = await fetch(`${kit.gatewayUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: CLAUDE, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as {
      type: string;
      error: { type: string; message: string };
      request_id: string;
    };
    expect(body).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'max_tokens: Field required' },
    });
    expect(response.headers.get('request-id')).toBe(body.request_id);
    expect(anthropic.received).toHaveLength(0);
  });

  it('takes the key as x-api-key, as curl users and older SDKs send it', async () => {
    const { key } = await newClient();
    const response = await fetch(`${kit.gatewayUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: CLAUDE, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { content: unknown }).content).toEqual([
      { type: 'text', text: 'Hello from claude' },
    ]);
  });

  it('answers unknown paths under /v1/messages and a missing key in Anthropic’s shape', async () => {
    const unknown = await fetch(`${kit.gatewayUrl}/v1/messages/batches`, { method: 'POST' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    const keyless = await fetch(`${kit.gatewayUrl}/v1/messages`, { method: 'POST', body: '{}' });
    expect(keyless.status).toBe(401);
    expect(await keyless.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  });
});
