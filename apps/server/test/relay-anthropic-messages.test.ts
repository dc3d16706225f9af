import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import {
  CLAUDE,
  GPT,
  anthropic,
  kit,
  lanes,
  lastLog,
  newClient,
  openAI,
  useAnthropicMessagesLanes,
  weatherTool,
} from './support/anthropic-messages-lanes';

/**
 * POST /v1/messages and /v1/messages/count_tokens end to end with `@anthropic-ai/sdk`: what an Anthropic
 * client gets on both lanes alike (see support/anthropic-messages-lanes), and the endpoint's errors on the
 * wire. What only one of the lanes does is in relay-anthropic-messages-lane-specifics.test.ts.
 */
useAnthropicMessagesLanes();

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
