import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChannelType } from '@gatehouse/shared';
import { startAnthropicStandIn, type AnthropicStandIn } from './support/anthropic-stand-in';
import { startRelayKit, type RelayKit } from './support/relay-kit';

/**
 * An Anthropic channel (type 14) served natively for OpenAI clients: the `openai` SDK's chat completions are
 * translated to the Messages API on the Anthropic stand-in and back (the translated lane), with tools,
 * streaming and the cache counts Anthropic reports.
 */
let kit: RelayKit;
let standIn: AnthropicStandIn;

const CLAUDE = 'claude-haiku-4-5';

beforeAll(async () => {
  standIn = await startAnthropicStandIn({ name: 'claude' });
  kit = await startRelayKit();
  await kit.createChannel({
    type: ChannelType.anthropic,
    baseUrl: standIn.url,
    key: standIn.apiKey,
    models: CLAUDE,
  });
});
afterAll(async () => {
  await kit.close();
  await standIn.close();
});
beforeEach(async () => {
  standIn.behaviour = {};
  standIn.received.length = 0;
  await kit.test.context.options.set('RetryTimes', '0');
});

async function newKey() {
  const user = await kit.createUser({ quota: 10_000_000 });
  const { key } = await kit.createKey(user.id);
  return { user, key };
}

async function newClient() {
  const { user, key } = await newKey();
  return { user, client: kit.client(key) };
}

const lastLog = () => kit.lastConsumeLog();

const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'The weather of a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

const cacheUsage = {
  input_tokens: 10,
  output_tokens: 7,
  cache_creation_input_tokens: 500,
  cache_read_input_tokens: 2000,
};

describe('an OpenAI client on an Anthropic channel', () => {
  it('gets the Messages API’s answer as a chat completion with the cache counts in its usage', async () => {
    const { client } = await newClient();
    standIn.behaviour = { usage: cacheUsage };
    const completion = await client.chat.completions.create({
      model: CLAUDE,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello' },
      ],
      max_tokens: 50,
    });
    expect(completion.choices[0]).toMatchObject({
      message: { role: 'assistant', content: 'Hello from claude' },
      finish_reason: 'stop',
    });
    expect(completion.usage).toMatchObject({
      prompt_tokens: 2510,
      completion_tokens: 7,
      prompt_tokens_details: { cached_tokens: 2000 },
    });
    const sent = standIn.received[0];
    expect(sent.url).toBe('/v1/messages');
    expect(sent.headers['x-api-key']).toBe(standIn.apiKey);
    expect(sent.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent.json).toMatchObject({
      model: CLAUDE,
      max_tokens: 50,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello' }] }],
    });
    const log = await lastLog();
    expect(log).toMatchObject({ model_name: CLAUDE, prompt_tokens: 2510, completion_tokens: 7 });
  });

  it('streams a tool call with its arguments, then the usage with the cache counts', async () => {
    const { client } = await newClient();
    standIn.behaviour = { usage: cacheUsage };
    const stream = await client.chat.completions.create({
      model: CLAUDE,
      messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
      tools: [weatherTool],
      stream: true,
      stream_options: { include_usage: true },
    });
    let name = '';
    let args = '';
    let id = '';
    let finish: string | null = null;
    let usage: unknown = null;
    for await (const chunk of stream) {
      for (const choice of chunk.choices) {
        for (const call of choice.delta.tool_calls ?? []) {
          id ||= call.id ?? '';
          name += call.function?.name ?? '';
          args += call.function?.arguments ?? '';
        }
        finish = choice.finish_reason ?? finish;
      }
      if (chunk.usage) usage = chunk.usage;
    }
    expect({ id, name, args: JSON.parse(args) as unknown, finish }).toEqual({
      id: 'toolu_01StandIn',
      name: 'get_weather',
      args: { city: 'Paris' },
      finish: 'tool_calls',
    });
    expect(usage).toMatchObject({
      prompt_tokens: 2510,
      completion_tokens: 7,
      prompt_tokens_details: { cached_tokens: 2000 },
    });
    expect(standIn.received[0].json).toMatchObject({
      stream: true,
      tools: [
        {
          name: 'get_weather',
          description: 'The weather of a city',
          input_schema: weatherTool.function.parameters,
        },
      ],
    });
    const log = await lastLog();
    expect(log).toMatchObject({ prompt_tokens: 2510, completion_tokens: 7, is_stream: 1 });
  });

  it('sends the tool result back as a tool_result block and gets the answer', async () => {
    const { client } = await newClient();
    const completion = await client.chat.completions.create({
      model: CLAUDE,
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'What is the weather in Paris?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'toolu_01StandIn',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_01StandIn', content: '21°C' },
      ],
    });
    expect(completion.choices[0].message.content).toBe('Hello from claude');
    const messages = standIn.received[0].json?.messages as Array<{ role: string; content: unknown }>;
    expect(messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_01StandIn', name: 'get_weather', input: { city: 'Paris' } }],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01StandIn', content: '21°C' }] },
    ]);
  });

  it('answers a request the translator cannot write as the gateway’s failure, leaving the channel’s health alone', async () => {
    // Tool-call arguments nested deeper than the translator can write out (it recurses): the request's own
    // shape, which says nothing about the channel, so no run of such requests opens its circuit.
    const threshold = kit.test.context.options.get('CircuitBreakerThreshold');
    await kit.test.context.options.set('CircuitBreakerThreshold', '2');
    const { key } = await newKey();
    const depth = 20_000;
    const send = (argumentsText: string) =>
      fetch(`${kit.gatewayUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: CLAUDE,
          tools: [weatherTool],
          messages: [
            { role: 'user', content: 'Weather?' },
            {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: 'toolu_01Deep',
                  type: 'function',
                  function: { name: 'get_weather', arguments: argumentsText },
                },
              ],
            },
            { role: 'tool', tool_call_id: 'toolu_01Deep', content: '21°C' },
          ],
        }),
      });
    for (let index = 0; index < 3; index += 1) {
      const refused = await send(`{"city":${'['.repeat(depth)}${']'.repeat(depth)}}`);
      expect(refused.status).toBe(500);
      expect(await refused.json()).toMatchObject({ error: { code: 'request_not_translated' } });
    }
    expect(standIn.received).toHaveLength(0);
    expect((await send('{"city":"Paris"}')).status).toBe(200);
    await kit.test.context.options.set('CircuitBreakerThreshold', threshold);
  });

  it('leaves a custom tool’s call and output out of the history, as it leaves out the custom tool', async () => {
    const { key } = await newKey();
    const response = await fetch(`${kit.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: CLAUDE,
        tools: [weatherTool, { type: 'custom', custom: { name: 'apply_patch' } }],
        messages: [
          { role: 'user', content: 'Fix the bug, then check the weather' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_patch', type: 'custom', custom: { name: 'apply_patch', input: '*** Begin Patch' } },
              {
                id: 'toolu_01StandIn',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'call_patch', content: 'Done' },
          {
            role: 'tool',
            tool_call_id: 'toolu_01StandIn',
            content: [
              { type: 'text', text: '21°C' },
              { type: 'refusal', refusal: 'no map' },
            ],
          },
        ],
      }),
    });
    expect(response.status).toBe(200);
    const messages = standIn.received[0].json?.messages as Array<{ role: string; content: unknown }>;
    expect(messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_01StandIn', name: 'get_weather', input: { city: 'Paris' } }],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_01StandIn', content: [{ type: 'text', text: '21°C' }] },
        ],
      },
    ]);
  });

  it.each([
    [
      'allowed_tools in required mode',
      { type: 'allowed_tools', allowed_tools: { mode: 'required', tools: [weatherTool] } },
      { type: 'any' },
    ],
    [
      'a custom tool, which Anthropic has not',
      { type: 'custom', custom: { name: 'apply_patch' } },
      undefined,
    ],
    ['a choice type OpenAI may add later', { type: 'mystery', mystery: {} }, undefined],
  ])('reads a tool_choice of %s instead of failing the channel', async (_case, toolChoice, sent) => {
    const { user, key } = await newKey();
    const response = await fetch(`${kit.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: CLAUDE,
        messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
        tools: [weatherTool],
        tool_choice: toolChoice,
      }),
    });
    expect(response.status).toBe(200);
    expect(standIn.received[0].json?.tool_choice).toEqual(sent);
    await kit.settle();
    expect(await kit.userQuota(user.id)).toBeLessThan(10_000_000);
  });
});
