import type { ResponseCreateParams } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { RelayError } from '../../relay/relay-error';
import { convertResponsesRequest, withPreviousConversation } from './convert-responses-request';

/** Valid bodies are written as the SDK types them, so a field the SDK spells differently fails to compile. */
const decode = (body: ResponseCreateParams) => convertResponsesRequest({ ...body });

function refusal(body: Record<string, unknown>): { status: number; param: string | null; message: string } {
  try {
    convertResponsesRequest(body);
  } catch (error) {
    if (error instanceof RelayError) {
      return { status: error.statusCode, param: error.param, message: error.message };
    }
    throw error;
  }
  throw new Error('the request was accepted');
}

describe('a Responses request decoded into the canonical chat request', () => {
  it('takes a string input as one user message, with instructions as the system message before it', () => {
    const decoded = decode({ model: 'gpt-4o', input: 'Hello', instructions: 'Be brief.' });
    expect(decoded.chat.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hello' },
    ]);
    expect(decoded.input).toEqual([{ role: 'user', content: 'Hello' }]);
    expect(decoded.chat.model).toBe('gpt-4o');
    expect(decoded.echo.instructions).toBe('Be brief.');
  });

  it('reads message items of every role with their content parts', () => {
    const decoded = decode({
      model: 'gpt-4o',
      input: [
        { role: 'developer', content: [{ type: 'input_text', text: 'Answer in French.' }] },
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is this?' },
            { type: 'input_image', image_url: 'https://example.com/cat.png', detail: 'low' },
            { type: 'input_file', file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' },
          ],
        },
        { role: 'assistant', content: 'Un chat.' },
        { role: 'system', content: 'Stay polite.' },
      ],
    });
    expect(decoded.chat.messages).toEqual([
      { role: 'developer', content: [{ type: 'text', text: 'Answer in French.' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.png', detail: 'low' } },
          { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' } },
        ],
      },
      { role: 'assistant', content: 'Un chat.' },
      { role: 'system', content: 'Stay polite.' },
    ]);
  });

  it('turns a function call round trip into assistant tool calls (merged) and tool messages', () => {
    const decoded = decode({
      model: 'gpt-4o',
      input: [
        { role: 'user', content: 'Weather in Paris and Rome?' },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call', call_id: 'call_2', name: 'get_weather', arguments: '{"city":"Rome"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '18°C' },
        { type: 'function_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: '24°C' }] },
      ],
    });
    expect(decoded.chat.messages).toEqual([
      { role: 'user', content: 'Weather in Paris and Rome?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
          { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
      { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: '24°C' }] },
    ]);
  });

  it('keeps reasoning items as thinking before the text and tool calls of the same turn', () => {
    const decoded = decode({
      model: 'claude-sonnet-4',
      input: [
        { role: 'user', content: 'Hi' },
        {
          type: 'reasoning',
          id: 'rs_1',
          summary: [],
          content: [{ type: 'reasoning_text', text: 'The user greets me.' }],
          encrypted_content: 'sig-1',
        },
        { type: 'reasoning', id: 'rs_2', summary: [], encrypted_content: 'redacted-data' },
        { type: 'reasoning', id: 'rs_3', summary: [] },
        {
          type: 'message',
          id: 'msg_1',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Hello!', annotations: [] }],
        },
        { type: 'function_call', call_id: 'call_1', name: 'wave', arguments: '{}' },
        { type: 'reasoning', id: 'rs_4', summary: [{ type: 'summary_text', text: 'A summary only.' }] },
      ],
    });
    expect(decoded.chat.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'The user greets me.', signature: 'sig-1' },
          { type: 'redacted_thinking', data: 'redacted-data' },
          { type: 'text', text: 'Hello!' },
        ],
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'wave', arguments: '{}' } }],
      },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'A summary only.' }] },
    ]);
  });

  it('maps function tools from the flat shape to the nested one and keeps built-in tools as vendor tools', () => {
    const decoded = decode({
      model: 'gpt-4o',
      input: 'Hi',
      tools: [
        {
          type: 'function',
          name: 'get_weather',
          description: 'Weather of a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
          strict: true,
        },
        { type: 'function', name: 'now', parameters: null, strict: null },
        { type: 'web_search' },
        { type: 'file_search', vector_store_ids: ['vs_1'] },
        { type: 'computer_use_preview', display_height: 768, display_width: 1024, environment: 'browser' },
        { type: 'code_interpreter', container: { type: 'auto' } },
        { type: 'mcp', server_label: 'docs', server_url: 'https://mcp.example.com' },
        { type: 'custom', name: 'apply_patch' },
        { type: 'local_shell' },
      ],
      tool_choice: { type: 'function', name: 'get_weather' },
      parallel_tool_calls: false,
    });
    expect(decoded.chat.tools?.slice(0, 3)).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Weather of a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
          strict: true,
        },
      },
      { type: 'function', function: { name: 'now' } },
      { type: 'web_search', vendor_protocol: 'openai-responses', definition: { type: 'web_search' } },
    ]);
    expect(
      decoded.chat.tools
        ?.slice(3)
        .map((tool) => [tool.type, 'vendor_protocol' in tool && tool.vendor_protocol]),
    ).toEqual([
      ['file_search', 'openai-responses'],
      ['computer_use_preview', 'openai-responses'],
      ['code_interpreter', 'openai-responses'],
      ['mcp', 'openai-responses'],
      ['function', false],
      ['local_shell', 'openai-responses'],
    ]);
    expect(decoded.chat.tool_choice).toEqual({ type: 'function', function: { name: 'get_weather' } });
    expect(decoded.chat.parallel_tool_calls).toBe(false);
    expect(decoded.echo.tools).toHaveLength(9);
  });

  it('narrows the tools to an allowed_tools choice', () => {
    const decoded = decode({
      model: 'gpt-4o',
      input: 'Hi',
      tools: [
        { type: 'function', name: 'a', parameters: null, strict: null },
        { type: 'function', name: 'b', parameters: null, strict: null },
        { type: 'web_search' },
      ],
      tool_choice: { type: 'allowed_tools', mode: 'required', tools: [{ type: 'function', name: 'b' }] },
    });
    expect(decoded.chat.tools).toEqual([{ type: 'function', function: { name: 'b' } }]);
    expect(decoded.chat.tool_choice).toBe('required');
  });

  it('maps the sampling, length, format, reasoning and stream options', () => {
    const decoded = decode({
      model: 'o4-mini',
      input: 'Hi',
      max_output_tokens: 500,
      temperature: 0.3,
      top_p: 0.9,
      text: {
        format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true },
        verbosity: 'low',
      },
      reasoning: { effort: 'high', summary: 'auto' },
      stream: true,
      user: 'end-user-1',
      safety_identifier: 'hashed-user',
      prompt_cache_key: 'conversation-9',
      metadata: { team: 'search' },
      store: false,
    });
    expect(decoded.chat).toMatchObject({
      max_completion_tokens: 500,
      temperature: 0.3,
      top_p: 0.9,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'answer', schema: { type: 'object' }, strict: true },
      },
      verbosity: 'low',
      reasoning_effort: 'high',
      stream: true,
      stream_options: { include_usage: true },
      user: 'end-user-1',
      safety_identifier: 'hashed-user',
      prompt_cache_key: 'conversation-9',
    });
    expect(decoded.chat).not.toHaveProperty('metadata');
    expect(decoded.chat).not.toHaveProperty('store');
    expect(decoded.shouldStore).toBe(false);
    expect(decoded.echo).toMatchObject({
      metadata: { team: 'search' },
      store: false,
      max_output_tokens: 500,
    });
    expect(
      decode({ model: 'm', input: 'x', text: { format: { type: 'json_object' } } }).chat.response_format,
    ).toEqual({
      type: 'json_object',
    });
  });

  it('turns reasoning effort none into disabled thinking and efforts above high into high', () => {
    expect(decode({ model: 'm', input: 'x', reasoning: { effort: 'none' } }).chat).toMatchObject({
      thinking: { type: 'disabled' },
    });
    expect(decode({ model: 'm', input: 'x', reasoning: { effort: 'xhigh' } }).chat.reasoning_effort).toBe(
      'high',
    );
  });

  it('keeps unknown fields on the request, never as an error, except names chat gives another meaning', () => {
    const decoded = convertResponsesRequest({
      model: 'gpt-5-codex',
      input: 'Hi',
      include: ['reasoning.encrypted_content'],
      max_tool_calls: 4,
      some_field_from_the_future: { on: true },
      n: 3,
      stop: ['\n'],
    });
    expect(decoded.chat).toMatchObject({
      include: ['reasoning.encrypted_content'],
      max_tool_calls: 4,
      some_field_from_the_future: { on: true },
    });
    expect(decoded.chat).not.toHaveProperty('n');
    expect(decoded.chat).not.toHaveProperty('stop');
    expect(Object.keys(decoded.extraFields)).toEqual([
      'include',
      'max_tool_calls',
      'some_field_from_the_future',
      'n',
      'stop',
    ]);
  });

  it('drops input items of built-in tools and names their types', () => {
    const decoded = decode({
      model: 'gpt-4o',
      input: [
        { role: 'user', content: 'Search it' },
        { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'x' } },
        { role: 'user', content: 'Thanks' },
      ],
    });
    expect(decoded.chat.messages).toEqual([
      { role: 'user', content: 'Search it' },
      { role: 'user', content: 'Thanks' },
    ]);
    expect(decoded.droppedItemTypes).toEqual(['web_search_call']);
  });

  it('puts a stored conversation between the new instructions and the new input', () => {
    const decoded = decode({
      model: 'gpt-4o',
      input: 'And Rome?',
      instructions: 'Be brief.',
      previous_response_id: 'resp_1',
    });
    expect(decoded.previousResponseId).toBe('resp_1');
    const chat = withPreviousConversation(decoded, [
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: 'Sunny.' },
    ]);
    expect(chat.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: 'Sunny.' },
      { role: 'user', content: 'And Rome?' },
    ]);
  });

  it('refuses malformed fields with a 400 that names the field', () => {
    expect(refusal({ input: 'Hi' })).toMatchObject({ status: 400, param: 'model' });
    expect(refusal({ model: 'm' })).toMatchObject({ status: 400, param: 'input' });
    expect(refusal({ model: 'm', input: 42 })).toMatchObject({ param: 'input' });
    expect(refusal({ model: 'm', input: [{ role: 'robot', content: 'x' }] })).toMatchObject({
      param: 'input[0].role',
    });
    expect(
      refusal({ model: 'm', input: [{ role: 'user', content: [{ type: 'input_text' }] }] }),
    ).toMatchObject({
      param: 'input[0].content[0].text',
    });
    expect(
      refusal({ model: 'm', input: [{ type: 'function_call', name: 'f', arguments: '{}' }] }),
    ).toMatchObject({ param: 'input[0].call_id' });
    expect(refusal({ model: 'm', input: 'x', tools: [{ type: 'function' }] })).toMatchObject({
      param: 'tools[0].name',
    });
    expect(refusal({ model: 'm', input: 'x', temperature: 3 })).toMatchObject({ param: 'temperature' });
    expect(refusal({ model: 'm', input: 'x', max_output_tokens: 0 })).toMatchObject({
      param: 'max_output_tokens',
    });
    expect(refusal({ model: 'm', input: 'x', tool_choice: 'sometimes' })).toMatchObject({
      param: 'tool_choice',
    });
    expect(refusal({ model: 'm', input: 'x', text: { format: { type: 'json_schema' } } })).toMatchObject({
      param: 'text.format.name',
    });
    expect(refusal({ model: 'm', input: 'x', reasoning: { effort: 'extreme' } })).toMatchObject({
      param: 'reasoning.effort',
    });
  });

  it('refuses file ids and file URLs, saying what to send instead', () => {
    const image = refusal({
      model: 'm',
      input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file-1', detail: 'auto' }] }],
    });
    expect(image).toMatchObject({ status: 400, param: 'input[0].content[0].file_id' });
    expect(image.message).toMatch(/no files API.*image_url/);
    const file = refusal({
      model: 'm',
      input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'file-2' }] }],
    });
    expect(file.message).toMatch(/file_data/);
    expect(
      refusal({
        model: 'm',
        input: [{ role: 'user', content: [{ type: 'input_file', file_url: 'https://x/a.pdf' }] }],
      }),
    ).toMatchObject({ param: 'input[0].content[0].file_url' });
  });

  it('refuses what needs state kept at OpenAI: background, conversations, prompt templates, item references', () => {
    expect(refusal({ model: 'm', input: 'x', background: true })).toMatchObject({ param: 'background' });
    expect(refusal({ model: 'm', input: 'x', conversation: 'conv_1' })).toMatchObject({
      param: 'conversation',
    });
    expect(refusal({ model: 'm', input: 'x', prompt: { id: 'pmpt_1' } })).toMatchObject({ param: 'prompt' });
    expect(refusal({ model: 'm', input: [{ id: 'msg_1' }] })).toMatchObject({ param: 'input[0].id' });
  });
});
