import { describe, expect, it } from 'vitest';
import type { ChatChunk, ChatDelta, ChatUsage, FinishReason } from '../../canonical/chat';
import { createAnsweringClient } from '../../../test/support/responses-sdk';
import { convertResponsesRequest } from './convert-responses-request';
import { createResponsesContext } from './responses-object';
import { formatResponsesEvents, ResponsesStreamEncoder } from './responses-stream-encoder';
import type { ResponsesStreamEvent } from './responses-types';

const usage: ChatUsage = { prompt_tokens: 9, completion_tokens: 7, total_tokens: 16 };

function chunk(delta: ChatDelta, finishReason: FinishReason | null = null): ChatChunk {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'upstream',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

const usageChunk: ChatChunk = {
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'upstream',
  choices: [],
  usage,
};

function encode(
  chunks: ChatChunk[],
  body: Record<string, unknown> = { model: 'm', input: 'Hi', stream: true },
) {
  const request = convertResponsesRequest(body);
  const encoder = new ResponsesStreamEncoder(createResponsesContext(request.echo, request.toolOrigins));
  const events: ResponsesStreamEvent[] = [];
  for (const piece of chunks) events.push(...encoder.push(piece));
  events.push(...encoder.finish());
  return { events, types: events.map((event) => event.type), encoder };
}

const textChunks = [
  chunk({ role: 'assistant', content: '' }),
  chunk({ content: 'Hel' }),
  chunk({ content: 'lo!' }),
  chunk({}, 'stop'),
  usageChunk,
];

describe('canonical chunks encoded as Responses stream events', () => {
  it('sends the whole event sequence of a text answer, numbered from 0', () => {
    const { events, types } = encode(textChunks);
    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_event, index) => index));
    const deltas = events.flatMap((event) =>
      event.type === 'response.output_text.delta' ? [event.delta] : [],
    );
    const done = events.find((event) => event.type === 'response.output_text.done');
    expect(deltas.join('')).toBe('Hello!');
    expect(done).toMatchObject({ text: 'Hello!', output_index: 0, content_index: 0 });
    const completed = events.at(-1);
    expect(completed).toMatchObject({
      type: 'response.completed',
      response: {
        status: 'completed',
        output: [
          { type: 'message', status: 'completed', content: [{ type: 'output_text', text: 'Hello!' }] },
        ],
        usage: { input_tokens: 9, output_tokens: 7, total_tokens: 16 },
      },
    });
    expect(events[0]).toMatchObject({ response: { status: 'in_progress', output: [], usage: null } });
  });

  it('streams thinking as a reasoning item with its signature before the message', () => {
    const { events, types } = encode([
      chunk({ reasoning_content: 'Think' }),
      chunk({ reasoning_content: 'ing.' }),
      chunk({ reasoning_signature: 'sig-1' }),
      chunk({ content: 'Done.' }, 'stop'),
    ]);
    expect(types.slice(2, 9)).toEqual([
      'response.output_item.added',
      'response.content_part.added',
      'response.reasoning_text.delta',
      'response.reasoning_text.delta',
      'response.reasoning_text.done',
      'response.content_part.done',
      'response.output_item.done',
    ]);
    expect(events[8]).toMatchObject({
      output_index: 0,
      item: {
        type: 'reasoning',
        summary: [],
        content: [{ type: 'reasoning_text', text: 'Thinking.' }],
        encrypted_content: 'sig-1',
        status: 'completed',
      },
    });
    expect(events[9]).toMatchObject({
      type: 'response.output_item.added',
      output_index: 1,
      item: { type: 'message' },
    });
  });

  it('streams a function call as an item with argument deltas, closed at the end', () => {
    const { events, types } = encode([
      chunk({ content: 'Checking.' }),
      chunk({
        tool_calls: [
          { index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } },
        ],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(types.slice(-6)).toEqual([
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(
      events.find((event) => event.type === 'response.output_item.added' && event.output_index === 1),
    ).toMatchObject({
      item: {
        type: 'function_call',
        call_id: 'call_1',
        name: 'get_weather',
        arguments: '',
        status: 'in_progress',
      },
    });
    expect(events.find((event) => event.type === 'response.function_call_arguments.done')).toMatchObject({
      output_index: 1,
      name: 'get_weather',
      arguments: '{"city":"Oslo"}',
    });
  });

  it('ends incomplete when the token limit cut the answer', () => {
    const { events } = encode([chunk({ content: 'Once' }, 'length')]);
    expect(events.at(-1)).toMatchObject({
      type: 'response.incomplete',
      response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
    });
  });

  it('takes the usage the relay counted when the upstream reported none', () => {
    const encoder = new ResponsesStreamEncoder(
      createResponsesContext(convertResponsesRequest({ model: 'm', input: 'x' }).echo),
    );
    encoder.push(chunk({ content: 'Hi' }, 'stop'));
    const completed = encoder.finish({ prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 }).at(-1);
    expect(completed).toMatchObject({
      response: { usage: { input_tokens: 3, output_tokens: 1, total_tokens: 4 } },
    });
    expect(encoder.response()?.status).toBe('completed');
  });

  it('ends with response.failed and the error when the answer breaks off', () => {
    const encoder = new ResponsesStreamEncoder(
      createResponsesContext(convertResponsesRequest({ model: 'm', input: 'x' }).echo),
    );
    encoder.push(chunk({ content: 'Par' }));
    const events = encoder.fail('The upstream stream was interrupted');
    expect(events.map((event) => event.type)).toEqual([
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.failed',
    ]);
    expect(events.at(-1)).toMatchObject({
      response: {
        status: 'failed',
        error: { code: 'server_error', message: 'The upstream stream was interrupted' },
      },
    });
  });

  it('frames each event as "event: <type>" and "data: <json>"', () => {
    const { events } = encode(textChunks);
    const text = formatResponsesEvents(events.slice(0, 1));
    expect(text).toBe(`event: response.created\ndata: ${JSON.stringify(events[0])}\n\n`);
  });

  it('is accumulated by the openai SDK into the final response with its output_text', async () => {
    const { events } = encode([
      chunk({ reasoning_content: 'Greet.' }),
      chunk({ content: 'Hello ' }),
      chunk({ content: 'there!' }),
      chunk({
        tool_calls: [
          { index: 0, id: 'call_1', type: 'function', function: { name: 'wave', arguments: '{}' } },
        ],
      }),
      chunk({}, 'tool_calls'),
      usageChunk,
    ]);
    const client = createAnsweringClient(formatResponsesEvents(events));
    const stream = client.responses.stream({ model: 'm', input: 'Hi' });
    const seen: string[] = [];
    for await (const event of stream) seen.push(event.type);
    const final = await stream.finalResponse();
    expect(seen).toEqual(events.map((event) => event.type));
    expect(final.output_text).toBe('Hello there!');
    expect(final.output.map((item) => item.type)).toEqual(['reasoning', 'message', 'function_call']);
    expect(final.usage?.total_tokens).toBe(16);
  });
});

describe('calls of custom and namespaced tools, streamed', () => {
  const body = {
    model: 'gpt-5.5',
    input: 'Fix it',
    stream: true,
    tools: [
      {
        type: 'custom',
        name: 'apply_patch',
        format: { type: 'grammar', syntax: 'lark', definition: 'start: x' },
      },
      { type: 'namespace', name: 'multi_agent_v1', tools: [{ type: 'function', name: 'spawn_agent' }] },
    ],
  };
  const patch = '*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch';
  const args = JSON.stringify({ input: patch });

  it('sends a custom tool call as a custom_tool_call item with its input whole, and a namespaced call by its own name', async () => {
    const { events, types, encoder } = encode(
      [
        chunk({
          role: 'assistant',
          tool_calls: [
            { index: 0, id: 'call_p', type: 'function', function: { name: 'apply_patch', arguments: '' } },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(0, 12) } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(12) } }] }),
        chunk({
          tool_calls: [
            {
              index: 1,
              id: 'call_s',
              type: 'function',
              function: { name: 'multi_agent_v1__spawn_agent', arguments: '{}' },
            },
          ],
        }),
        chunk({}, 'tool_calls'),
        usageChunk,
      ],
      body,
    );
    expect(types.slice(2)).toEqual([
      'response.output_item.added',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.custom_tool_call_input.delta',
      'response.custom_tool_call_input.done',
      'response.output_item.done',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events[2]).toMatchObject({
      item: {
        type: 'custom_tool_call',
        call_id: 'call_p',
        name: 'apply_patch',
        input: '',
        status: 'in_progress',
      },
    });
    expect(events[5]).toMatchObject({ delta: patch, output_index: 0 });
    expect(encoder.response()?.output).toEqual([
      expect.objectContaining({
        type: 'custom_tool_call',
        call_id: 'call_p',
        name: 'apply_patch',
        input: patch,
      }),
      expect.objectContaining({
        type: 'function_call',
        call_id: 'call_s',
        name: 'spawn_agent',
        namespace: 'multi_agent_v1',
        arguments: '{}',
      }),
    ]);

    const client = createAnsweringClient(formatResponsesEvents(events));
    const stream = client.responses.stream({ model: 'gpt-5.5', input: 'Fix it' });
    for await (const event of stream) void event;
    const final = await stream.finalResponse();
    expect(final.output[0]).toMatchObject({ type: 'custom_tool_call', input: patch });
  });

  it('passes on the text of a custom call whose arguments are not {"input": …}', () => {
    const { encoder } = encode(
      [
        chunk({
          tool_calls: [
            {
              index: 0,
              id: 'call_p',
              type: 'function',
              function: { name: 'apply_patch', arguments: 'raw text' },
            },
          ],
        }),
        chunk({}, 'tool_calls'),
      ],
      body,
    );
    expect(encoder.response()?.output[0]).toMatchObject({ type: 'custom_tool_call', input: 'raw text' });
  });
});

describe('a call of the client’s tool search, streamed', () => {
  it('is a tool_search_call item with its arguments as an object', async () => {
    const { types, encoder, events } = encode(
      [
        chunk({
          tool_calls: [
            {
              index: 0,
              id: 'call_t',
              type: 'function',
              function: { name: 'tool_search', arguments: '{"query":' },
            },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '"records"}' } }] }),
        chunk({}, 'tool_calls'),
        usageChunk,
      ],
      {
        model: 'gpt-5.5',
        input: 'Find it',
        stream: true,
        tools: [{ type: 'tool_search', execution: 'client', parameters: { type: 'object' } }],
      },
    );
    expect(types.slice(2)).toEqual([
      'response.output_item.added',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(encoder.response()?.output).toEqual([
      {
        type: 'tool_search_call',
        id: expect.stringMatching(/^tsc_/),
        call_id: 'call_t',
        arguments: { query: 'records' },
        execution: 'client',
        status: 'completed',
      },
    ]);
    const stream = createAnsweringClient(formatResponsesEvents(events)).responses.stream({
      model: 'gpt-5.5',
      input: 'Find it',
    });
    for await (const event of stream) void event;
    expect((await stream.finalResponse()).output[0]).toMatchObject({ type: 'tool_search_call' });
  });
});
