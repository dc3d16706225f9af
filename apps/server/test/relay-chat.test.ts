import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';

let kit: RelayKit;
let upstream: OpenAIUpstream;

beforeAll(async () => {
  upstream = await startOpenAIUpstream('alpha');
  kit = await startRelayKit();
  await kit.createChannel({
    upstream,
    models: 'gpt-4o-mini,gpt-4o,gpt-3.5-turbo-instruct,claude-3-haiku-20240307',
  });
  await kit.createChannel({ upstream, models: 'gpt-4-old', modelMapping: { 'gpt-4-old': 'gpt-4o' } });
  await kit.test.context.options.set('ModelRatio', JSON.stringify({ 'gpt-4-old': 15 }));
});
afterAll(async () => {
  await kit.close();
  await upstream.close();
});
beforeEach(() => {
  upstream.behaviour = {};
  upstream.received.length = 0;
});

const lastLog = () => kit.lastConsumeLog();

describe('POST /v1/chat/completions (JSON)', () => {
  it('answers the upstream completion and bills its usage exactly', async () => {
    const user = await kit.createUser({ quota: 1_000_000 });
    const { key } = await kit.createKey(user.id);
    upstream.behaviour = { usage: { prompt: 1000, completion: 2000 } };
    const completion = await kit.client(key).chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Say hello' }],
    });
    expect(completion.choices[0].message.content).toBe('Hello from alpha');
    // gpt-4o: $2.50 / $10 per 1M → ratio 1.25, completion ratio 4: (1000 + 2000 × 4) × 1.25 = 11250.
    const log = await lastLog();
    expect(log).toMatchObject({
      user_id: user.id,
      model_name: 'gpt-4o',
      prompt_tokens: 1000,
      completion_tokens: 2000,
      quota: 11250,
      is_stream: 0,
      content:
        'model ratio 1.25, completion ratio 4, cache read ratio 0.5, cache write ratio 1, group ratio 1',
    });
    expect(await kit.userQuota(user.id)).toBe(1_000_000 - 11250);
    const stored = await kit.test.context.db
      .selectFrom('users')
      .select(['used_quota', 'request_count'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ used_quota: 11250, request_count: 1 });
  });

  it('forwards the body byte for byte when no mapping applies, unknown fields included', async () => {
    const user = await kit.createUser();
    const { key } = await kit.createKey(user.id);
    const body = JSON.stringify({
      model: 'gpt-4o-mini',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'https://img.example/cat.png', detail: 'low' } },
          ],
        },
      ],
      n: 2,
      response_format: { type: 'json_object' },
      some_vendor_flag: { nested: [1, 2, 3] },
    });
    const response = await fetch(`${kit.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body,
    });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { choices: unknown[] };
    expect(answer.choices).toHaveLength(2);
    expect(upstream.received[0].body.toString()).toBe(body);
    expect(upstream.received[0].headers.authorization).toMatch(/^Bearer sk-channel-secret-/);
  });

  it('applies the channel model mapping before the upstream call and logs the requested model', async () => {
    const user = await kit.createUser();
    const { key } = await kit.createKey(user.id);
    await kit.client(key).chat.completions.create({
      model: 'gpt-4-old',
      messages: [{ role: 'user', content: 'hi' }],
      temperature: 0.3,
    });
    expect(upstream.received[0].json).toMatchObject({ model: 'gpt-4o', temperature: 0.3 });
    const log = await lastLog();
    expect(log.model_name).toBe('gpt-4-old');
    expect(log.content).toContain('model ratio 15');
    expect(log.content).toContain('upstream model gpt-4o');
  });

  it('passes tools through and answers the tool calls', async () => {
    const user = await kit.createUser();
    const { key } = await kit.createKey(user.id);
    const tools = [
      {
        type: 'function' as const,
        function: {
          name: 'get_weather',
          description: 'Weather of a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      },
    ];
    const completion = await kit.client(key).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools,
      tool_choice: 'auto',
    });
    const call = completion.choices[0].message.tool_calls?.[0];
    expect(call?.type === 'function' && call.function).toEqual({
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
    });
    expect(upstream.received[0].json?.tools).toEqual(tools);
  });

  it('counts tokens locally when the upstream reports no usage', async () => {
    const user = await kit.createUser();
    const { key } = await kit.createKey(user.id);
    upstream.behaviour = { omitUsage: true, words: ['one two three four'] };
    await kit.client(key).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'count these words please' }],
    });
    const log = await lastLog();
    // o200k: "one two three four" is 4 tokens; the prompt: 3 + (3 + role 1 + 4 content) = 11.
    expect(log.completion_tokens).toBe(4);
    expect(log.prompt_tokens).toBe(11);
    expect(log.content).toContain('usage counted locally');
  });

  it('relays the legacy completions endpoint', async () => {
    const user = await kit.createUser();
    const { key } = await kit.createKey(user.id);
    const completion = await kit
      .client(key)
      .completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'Say hi' });
    expect(completion.choices[0].text).toBe('Hello from alpha');
    expect(upstream.received[0].url).toBe('/v1/completions');
  });
});

describe('POST /v1/chat/completions (streaming)', () => {
  it('streams the chunks and removes the usage chunk the gateway asked for on its own', async () => {
    const user = await kit.createUser({ quota: 1_000_000 });
    const { key } = await kit.createKey(user.id);
    upstream.behaviour = { usage: { prompt: 100, completion: 200 } };
    const stream = await kit.client(key).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const text = chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join('');
    expect(text).toBe('Hello from alpha');
    expect(chunks.every((chunk) => chunk.choices.length > 0)).toBe(true);
    expect(chunks.some((chunk) => chunk.usage)).toBe(false);
    expect(upstream.received[0].json?.stream_options).toEqual({ include_usage: true });
    const log = await lastLog();
    // gpt-4o-mini: ratio 0.075, completion ratio 4: (100 + 800) × 0.075 = 67.5 → 68.
    expect(log).toMatchObject({ prompt_tokens: 100, completion_tokens: 200, quota: 68, is_stream: 1 });
  });

  it('keeps the usage chunk when the client asked for it', async () => {
    const user = await kit.createUser();
    const { key } = await kit.createKey(user.id);
    upstream.behaviour = { usage: { prompt: 7, completion: 3 } };
    const stream = await kit.client(key).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const last = chunks[chunks.length - 1];
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 3 });
  });

  it('counts the streamed text when the upstream never sends usage', async () => {
    const user = await kit.createUser();
    const { key } = await kit.createKey(user.id);
    upstream.behaviour = { streamUsage: 'never', words: ['alpha', ' beta', ' gamma'] };
    const stream = await kit.client(key).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    for await (const chunk of stream) void chunk;
    const log = await lastLog();
    expect(log.completion_tokens).toBe(3);
    expect(log.content).toContain('usage counted locally');
  });

  it('streams tool calls', async () => {
    const user = await kit.createUser();
    const { key } = await kit.createKey(user.id);
    const stream = await kit.client(key).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Weather?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
      stream: true,
    });
    let name = '';
    let args = '';
    for await (const chunk of stream) {
      for (const call of chunk.choices[0]?.delta?.tool_calls ?? []) {
        name += call.function?.name ?? '';
        args += call.function?.arguments ?? '';
      }
    }
    expect(name).toBe('get_weather');
    expect(JSON.parse(args)).toEqual({ city: 'Paris' });
  });

  it('turns a JSON answer to a stream request into the stream the client asked for', async () => {
    const user = await kit.createUser();
    const { key } = await kit.createKey(user.id);
    upstream.behaviour = { ignoreStream: true, usage: { prompt: 4, completion: 3 } };
    const stream = await kit.client(key).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks[0].choices[0].delta.content).toBe('Hello from alpha');
    expect(chunks[chunks.length - 1].usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 3 });
    expect(await lastLog()).toMatchObject({ prompt_tokens: 4, completion_tokens: 3, is_stream: 1 });
  });
});
