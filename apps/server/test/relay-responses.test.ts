import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LogType } from '@gatehouse/shared';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';

/**
 * POST /v1/responses end to end with the `openai` SDK's Responses client, against a channel of the OpenAI
 * chat stand-in: every request is translated (Responses → canonical → chat completions upstream → canonical
 * → Responses). Stored responses: previous_response_id and GET/DELETE /v1/responses/{id}.
 */
let kit: RelayKit;
let upstream: OpenAIUpstream;

beforeAll(async () => {
  upstream = await startOpenAIUpstream('alpha');
  kit = await startRelayKit();
  await kit.createChannel({ upstream, models: 'gpt-4o,gpt-4o-mini' });
});
afterAll(async () => {
  await kit.close();
  await upstream.close();
});
beforeEach(async () => {
  upstream.behaviour = {};
  upstream.received.length = 0;
  await kit.test.context.options.set('ResponsesStorageEnabled', 'false');
});

async function newClient(): Promise<{ client: OpenAI; userId: number }> {
  const user = await kit.createUser({ quota: 1_000_000 });
  const { key } = await kit.createKey(user.id);
  return { client: kit.client(key), userId: user.id };
}

const lastUpstreamBody = () => upstream.received.at(-1)?.json as Record<string, unknown>;

const weatherTool = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'The weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  strict: false,
};

describe('POST /v1/responses', () => {
  it('answers a plain input as a response object the SDK reads, and bills it like a chat call', async () => {
    const { client, userId } = await newClient();
    upstream.behaviour = { usage: { prompt: 100, completion: 20 } };
    const response = await client.responses.create({ model: 'gpt-4o', input: 'Say hello' });
    expect(response.output_text).toBe('Hello from alpha');
    expect(response).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'gpt-4o',
      usage: { input_tokens: 100, output_tokens: 20, total_tokens: 120 },
    });
    expect(response.id).toMatch(/^resp_/);
    expect(lastUpstreamBody()).toMatchObject({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Say hello' }],
    });
    await kit.settle();
    const log = await kit.test.context.db
      .selectFrom('logs')
      .selectAll()
      .where('user_id', '=', userId)
      .where('type', '=', LogType.consume)
      .executeTakeFirstOrThrow();
    expect(log).toMatchObject({ model_name: 'gpt-4o', prompt_tokens: 100, completion_tokens: 20 });
  });

  it('sends instructions first as the system message, and max_output_tokens as the token limit', async () => {
    const { client } = await newClient();
    const response = await client.responses.create({
      model: 'gpt-4o',
      instructions: 'Answer in one word.',
      input: [{ role: 'user', content: 'Greet me' }],
      max_output_tokens: 50,
      temperature: 0.2,
    });
    expect(response.instructions).toBe('Answer in one word.');
    expect(response.temperature).toBe(0.2);
    expect(lastUpstreamBody()).toMatchObject({
      messages: [
        { role: 'system', content: 'Answer in one word.' },
        { role: 'user', content: 'Greet me' },
      ],
      max_completion_tokens: 50,
      temperature: 0.2,
    });
  });

  it('streams the Responses events, ending with response.completed and its usage', async () => {
    const { client } = await newClient();
    upstream.behaviour = { words: ['Hel', 'lo', '!'], usage: { prompt: 7, completion: 3 } };
    const stream = await client.responses.create({ model: 'gpt-4o', input: 'Hi', stream: true });
    const types: string[] = [];
    let deltas = '';
    let completed: OpenAI.Responses.Response | null = null;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') deltas += event.delta;
      if (event.type === 'response.completed') completed = event.response;
    }
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(types).toContain('response.output_text.done');
    expect(deltas).toBe('Hello!');
    expect(completed).toMatchObject({
      status: 'completed',
      usage: { input_tokens: 7, output_tokens: 3 },
      output: [{ type: 'message', content: [{ type: 'output_text', text: 'Hello!' }] }],
    });
    expect(lastUpstreamBody()).toMatchObject({ stream: true, stream_options: { include_usage: true } });

    const helper = client.responses.stream({ model: 'gpt-4o', input: 'Hi' });
    expect((await helper.finalResponse()).output_text).toBe('Hello!');
  });

  it('round-trips a function call: function_call out, function_call_output in the next request', async () => {
    const { client } = await newClient();
    const first = await client.responses.create({
      model: 'gpt-4o',
      input: 'Weather in Paris?',
      tools: [weatherTool],
    });
    const call = first.output.find((item) => item.type === 'function_call');
    expect(call).toMatchObject({
      type: 'function_call',
      call_id: 'call_1',
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
    });
    expect(lastUpstreamBody().tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'The weather of a city',
          parameters: weatherTool.parameters,
          strict: false,
        },
      },
    ]);

    const second = await client.responses.create({
      model: 'gpt-4o',
      input: [
        { role: 'user', content: 'Weather in Paris?' },
        // the SDK's documented round trip: the model's output items go back as input
        ...first.output.filter((item) => item.type === 'function_call'),
        { type: 'function_call_output', call_id: 'call_1', output: '18°C and sunny' },
      ],
    });
    expect(second.output_text).toBe('Hello from alpha');
    expect(lastUpstreamBody().messages).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '18°C and sunny' },
    ]);
  });

  it('streams a function call as its item and argument events', async () => {
    const { client } = await newClient();
    const stream = client.responses.stream({ model: 'gpt-4o', input: 'Weather?', tools: [weatherTool] });
    const final = await stream.finalResponse();
    expect(final.output).toEqual([
      expect.objectContaining({
        type: 'function_call',
        call_id: 'call_1',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
      }),
    ]);
  });

  it('refuses a malformed body with a 400 naming the field, in OpenAI error shape', async () => {
    const { client } = await newClient();
    const error = await client.responses
      .create({ model: 'gpt-4o', input: [{ role: 'robot', content: 'x' }] } as never)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, param: 'input[0].role', type: 'invalid_request_error' });
    expect(upstream.received).toHaveLength(0);
  });

  it('answers an upstream failure mid-stream with response.failed', async () => {
    const { client } = await newClient();
    upstream.behaviour = { words: ['one', ' two', ' three'], breakStreamAfterChunks: 1 };
    const stream = await client.responses.create({ model: 'gpt-4o', input: 'Count', stream: true });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.at(-1)).toMatchObject({
      type: 'response.failed',
      response: { status: 'failed', error: { code: 'server_error' } },
    });
  });
});

describe('stored responses', () => {
  it('refuses previous_response_id and GET/DELETE with a 400 saying how to turn storage on while it is off', async () => {
    const { client } = await newClient();
    const error = await client.responses
      .create({ model: 'gpt-4o', input: 'And then?', previous_response_id: 'resp_123' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ param: 'previous_response_id' });
    expect((error as Error).message).toMatch(/turned off.*ResponsesStorageEnabled/);
    await expect(client.responses.retrieve('resp_123')).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    await expect(client.responses.delete('resp_123')).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    expect(upstream.received).toHaveLength(0);
  });

  it('continues a stored conversation with previous_response_id', async () => {
    await kit.test.context.options.set('ResponsesStorageEnabled', 'true');
    const { client } = await newClient();
    upstream.behaviour = { words: ['Sunny', '.'] };
    const first = await client.responses.create({
      model: 'gpt-4o',
      instructions: 'Be brief.',
      input: 'Weather in Paris?',
    });
    expect(first).toMatchObject({ store: true });
    upstream.behaviour = { words: ['Rainy', '.'] };
    const second = await client.responses.create({
      model: 'gpt-4o',
      instructions: 'Be very brief.',
      input: 'And Rome?',
      previous_response_id: first.id,
    });
    expect(second.output_text).toBe('Rainy.');
    expect(second.previous_response_id).toBe(first.id);
    expect(lastUpstreamBody().messages).toEqual([
      { role: 'system', content: 'Be very brief.' },
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: 'Sunny.' },
      { role: 'user', content: 'And Rome?' },
    ]);

    const third = client.responses.stream({
      model: 'gpt-4o',
      input: 'And Oslo?',
      previous_response_id: second.id,
    });
    await third.finalResponse();
    expect(lastUpstreamBody().messages).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: 'Sunny.' },
      { role: 'user', content: 'And Rome?' },
      { role: 'assistant', content: 'Rainy.' },
      { role: 'user', content: 'And Oslo?' },
    ]);
  });

  it('keeps offering the tools a stored conversation’s tool search found', async () => {
    await kit.test.context.options.set('ResponsesStorageEnabled', 'true');
    const { client } = await newClient();
    const search = { type: 'tool_search', execution: 'client', parameters: { type: 'object' } };
    const found = {
      type: 'namespace',
      name: 'mcp__docs',
      description: 'Docs.',
      tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object' } }],
    };
    const toolNames = () =>
      (lastUpstreamBody().tools as { function?: { name: string } }[]).map((tool) => tool.function?.name);
    // Fields newer than the SDK's types, sent as Codex sends them.
    const first = await client.responses.create({
      model: 'gpt-4o',
      tools: [search],
      input: [
        { role: 'user', content: 'Find the docs tool' },
        { type: 'tool_search_call', call_id: 'call_s', execution: 'client', arguments: { query: 'docs' } },
        { type: 'tool_search_output', call_id: 'call_s', execution: 'client', tools: [found] },
      ],
    } as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming);
    expect(toolNames()).toEqual(['tool_search', 'mcp__docs__lookup']);

    await client.responses.create({
      model: 'gpt-4o',
      tools: [search],
      input: 'Now look up page 7',
      previous_response_id: first.id,
    } as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming);
    expect(toolNames()).toEqual(['tool_search', 'mcp__docs__lookup']);
    expect(lastUpstreamBody().messages).toMatchObject([
      { role: 'user', content: 'Find the docs tool' },
      { role: 'assistant', tool_calls: [{ id: 'call_s', function: { name: 'tool_search' } }] },
      { role: 'tool', tool_call_id: 'call_s' },
      { role: 'assistant' },
      { role: 'user', content: 'Now look up page 7' },
    ]);
  });

  it('reads and deletes a stored response for its own user only; store: false is not stored', async () => {
    await kit.test.context.options.set('ResponsesStorageEnabled', 'true');
    const alice = await newClient();
    const bob = await newClient();
    const created = await alice.client.responses.create({ model: 'gpt-4o', input: 'Hi' });

    const read = await alice.client.responses.retrieve(created.id);
    expect(read.id).toBe(created.id);
    expect(read.output_text).toBe('Hello from alpha');
    await expect(bob.client.responses.retrieve(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(bob.client.responses.delete(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    const refused = await bob.client.responses
      .create({ model: 'gpt-4o', input: 'x', previous_response_id: created.id })
      .catch((caught: unknown) => caught);
    expect(refused).toMatchObject({ status: 400, code: 'previous_response_not_found' });

    await alice.client.responses.delete(created.id);
    await expect(alice.client.responses.retrieve(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);

    const unstored = await alice.client.responses.create({ model: 'gpt-4o', input: 'Hi', store: false });
    expect(unstored).toMatchObject({ store: false });
    await expect(alice.client.responses.retrieve(unstored.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });
});
