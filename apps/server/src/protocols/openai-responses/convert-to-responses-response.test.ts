import { describe, expect, it } from 'vitest';
import type { ChatCompletion } from '../../canonical/chat';
import { createAnsweringClient } from '../../../test/support/responses-sdk';
import { convertResponsesRequest } from './convert-responses-request';
import { convertToResponsesResponse } from './convert-to-responses-response';
import { createResponsesContext } from './responses-object';

function completionOf(
  message: ChatCompletion['choices'][0]['message'],
  finishReason: 'stop' | 'length' | 'tool_calls' = 'stop',
): ChatCompletion {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'upstream-model-2025',
    choices: [{ index: 0, message, finish_reason: finishReason }],
    usage: {
      prompt_tokens: 30,
      completion_tokens: 12,
      total_tokens: 42,
      prompt_tokens_details: { cached_tokens: 10, cache_creation_tokens: 5 },
      completion_tokens_details: { reasoning_tokens: 4 },
    },
  };
}

const contextOf = (body: Record<string, unknown>) => {
  const request = convertResponsesRequest(body);
  return createResponsesContext(request.echo, request.toolOrigins);
};

describe('a canonical completion encoded as a Responses response object', () => {
  it('has the response fields, the request echo and the usage the API writes', () => {
    const context = contextOf({
      model: 'my-model',
      input: 'Hi',
      instructions: 'Be brief.',
      temperature: 0.5,
    });
    const response = convertToResponsesResponse(
      completionOf({ role: 'assistant', content: 'Hello!' }),
      context,
    );
    expect(response).toMatchObject({
      id: context.id,
      object: 'response',
      created_at: context.createdAt,
      status: 'completed',
      error: null,
      incomplete_details: null,
      model: 'my-model',
      instructions: 'Be brief.',
      temperature: 0.5,
      top_p: null,
      tool_choice: 'auto',
      tools: [],
      parallel_tool_calls: true,
      text: { format: { type: 'text' } },
      usage: {
        input_tokens: 30,
        input_tokens_details: { cached_tokens: 10, cache_write_tokens: 5 },
        output_tokens: 12,
        output_tokens_details: { reasoning_tokens: 4 },
        total_tokens: 42,
      },
    });
    expect(response.id).toMatch(/^resp_[0-9a-f]{48}$/);
    expect(response.output).toEqual([
      {
        type: 'message',
        id: expect.stringMatching(/^msg_/),
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Hello!', annotations: [] }],
      },
    ]);
    expect(response).not.toHaveProperty('output_text');
  });

  it('writes thinking as reasoning items, then the message, then function calls', () => {
    const context = contextOf({ model: 'm', input: 'Hi' });
    const response = convertToResponsesResponse(
      completionOf(
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Check the weather.', signature: 'sig-1' },
            { type: 'redacted_thinking', data: 'opaque' },
            { type: 'text', text: 'Let me look.' },
          ],
          tool_calls: [
            {
              id: 'call_9',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
            },
          ],
        },
        'tool_calls',
      ),
      context,
    );
    expect(response.output.map((item) => item.type)).toEqual([
      'reasoning',
      'reasoning',
      'message',
      'function_call',
    ]);
    expect(response.output[0]).toMatchObject({
      id: expect.stringMatching(/^rs_/),
      summary: [],
      content: [{ type: 'reasoning_text', text: 'Check the weather.' }],
      encrypted_content: 'sig-1',
    });
    expect(response.output[1]).toMatchObject({ encrypted_content: 'opaque' });
    expect(response.output[1]).not.toHaveProperty('content');
    expect(response.output[3]).toEqual({
      type: 'function_call',
      id: expect.stringMatching(/^fc_/),
      call_id: 'call_9',
      name: 'get_weather',
      arguments: '{"city":"Oslo"}',
      status: 'completed',
    });
  });

  it('decodes its own output back into the same assistant turn', () => {
    const message = {
      role: 'assistant' as const,
      content: [
        { type: 'thinking' as const, thinking: 'Hmm.', signature: 'sig' },
        { type: 'text' as const, text: 'Calling.' },
      ],
      tool_calls: [{ id: 'call_1', type: 'function' as const, function: { name: 'f', arguments: '{}' } }],
    };
    const response = convertToResponsesResponse(
      completionOf(message, 'tool_calls'),
      contextOf({ model: 'm', input: 'x' }),
    );
    const again = convertResponsesRequest({ model: 'm', input: response.output });
    expect(again.input).toEqual([message]);
  });

  it('is incomplete with max_output_tokens when the answer was cut by the token limit', () => {
    const response = convertToResponsesResponse(
      completionOf({ role: 'assistant', content: 'Once upon a' }, 'length'),
      contextOf({ model: 'm', input: 'Tell a story', max_output_tokens: 3 }),
    );
    expect(response).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      max_output_tokens: 3,
      output: [{ type: 'message', status: 'incomplete' }],
    });
  });

  it('is read by the openai SDK, whose output_text joins the message text', async () => {
    const context = contextOf({ model: 'm', input: 'Hi' });
    const response = convertToResponsesResponse(
      completionOf({
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Greet back.' },
          { type: 'text', text: 'Hello ' },
          { type: 'text', text: 'there!' },
        ],
      }),
      context,
    );
    const parsed = await createAnsweringClient(JSON.stringify(response)).responses.create({
      model: 'm',
      input: 'Hi',
    });
    expect(parsed.output_text).toBe('Hello there!');
    expect(parsed.id).toBe(context.id);
    expect(parsed.usage?.total_tokens).toBe(42);
  });
});

describe('calls of custom and namespaced tools in a response object', () => {
  it('are custom_tool_call items with the input, and function_call items with their namespace', async () => {
    const context = contextOf({
      model: 'gpt-5.5',
      input: 'Fix it',
      tools: [
        { type: 'custom', name: 'apply_patch' },
        { type: 'namespace', name: 'multi_agent_v1', tools: [{ type: 'function', name: 'spawn_agent' }] },
        { type: 'function', name: 'exec_command' },
      ],
    });
    const response = convertToResponsesResponse(
      completionOf(
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'c1',
              type: 'function',
              function: { name: 'apply_patch', arguments: '{"input":"*** Begin"}' },
            },
            {
              id: 'c2',
              type: 'function',
              function: { name: 'multi_agent_v1__spawn_agent', arguments: '{}' },
            },
            { id: 'c3', type: 'function', function: { name: 'exec_command', arguments: '{"cmd":"ls"}' } },
          ],
        },
        'tool_calls',
      ),
      context,
    );
    expect(response.output).toEqual([
      {
        type: 'custom_tool_call',
        id: expect.stringMatching(/^ctc_/),
        call_id: 'c1',
        name: 'apply_patch',
        input: '*** Begin',
        status: 'completed',
      },
      {
        type: 'function_call',
        id: expect.stringMatching(/^fc_/),
        call_id: 'c2',
        name: 'spawn_agent',
        namespace: 'multi_agent_v1',
        arguments: '{}',
        status: 'completed',
      },
      {
        type: 'function_call',
        id: expect.stringMatching(/^fc_/),
        call_id: 'c3',
        name: 'exec_command',
        arguments: '{"cmd":"ls"}',
        status: 'completed',
      },
    ]);
    const parsed = await createAnsweringClient(JSON.stringify(response)).responses.create({
      model: 'gpt-5.5',
      input: 'Fix it',
    });
    expect(parsed.output[0]).toMatchObject({ type: 'custom_tool_call', input: '*** Begin' });
  });
});
