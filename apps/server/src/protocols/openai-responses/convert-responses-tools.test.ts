import type { ResponseCreateParams } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { convertResponsesRequest } from './convert-responses-request';

/**
 * The tools a chat model of any vendor can run in place of OpenAI's own kinds (convert-responses-tools.ts), as
 * a Responses request decodes them. Valid bodies are written as the SDK types them.
 */
const decode = (body: ResponseCreateParams) => convertResponsesRequest({ ...body });

describe('custom and namespaced tools (Codex’s apply_patch and sub-agent tools) for a model of any vendor', () => {
  const grammar = 'start: begin_patch hunk+ end_patch';
  const body: ResponseCreateParams = {
    model: 'gpt-5.5',
    input: 'Fix the bug',
    tools: [
      { type: 'function', name: 'exec_command', parameters: { type: 'object' }, strict: false },
      {
        type: 'custom',
        name: 'apply_patch',
        description: 'Edits files. This is a FREEFORM tool.',
        format: { type: 'grammar', syntax: 'lark', definition: grammar },
      },
      {
        type: 'namespace',
        name: 'multi_agent_v1',
        description: 'Sub-agents.',
        tools: [
          {
            type: 'function',
            name: 'spawn_agent',
            description: 'Starts one.',
            parameters: { type: 'object', properties: { message: { type: 'string' } } },
          },
          { type: 'custom', name: 'note' },
        ],
      },
    ],
  };

  it('offers a custom tool as a function taking its input as one string, its grammar in the description', () => {
    const decoded = decode(body);
    expect(decoded.chat.tools?.[1]).toEqual({
      type: 'function',
      function: {
        name: 'apply_patch',
        description: `Edits files. This is a FREEFORM tool.\n\nThe input must follow this lark grammar:\n${grammar}`,
        parameters: {
          type: 'object',
          properties: { input: { type: 'string', description: 'The input, as free-form text.' } },
          required: ['input'],
          additionalProperties: false,
        },
      },
    });
  });

  it('offers a namespace’s tools as functions named namespace__name, and remembers where each came from', () => {
    const decoded = decode(body);
    expect(decoded.chat.tools?.map((tool) => ('function' in tool ? tool.function.name : tool.type))).toEqual([
      'exec_command',
      'apply_patch',
      'multi_agent_v1__spawn_agent',
      'multi_agent_v1__note',
    ]);
    expect(decoded.chat.tools?.[2]).toMatchObject({
      function: { description: 'Starts one.', parameters: { properties: { message: { type: 'string' } } } },
    });
    expect([...decoded.toolOrigins]).toEqual([
      ['apply_patch', { kind: 'custom', name: 'apply_patch', namespace: undefined }],
      ['multi_agent_v1__spawn_agent', { kind: 'function', name: 'spawn_agent', namespace: 'multi_agent_v1' }],
      ['multi_agent_v1__note', { kind: 'custom', name: 'note', namespace: 'multi_agent_v1' }],
    ]);
  });

  it('names a chosen custom or namespaced tool as the model sees it', () => {
    expect(
      decode({ ...body, tool_choice: { type: 'custom', name: 'apply_patch' } }).chat.tool_choice,
    ).toEqual({
      type: 'function',
      function: { name: 'apply_patch' },
    });
    const allowed = decode({
      ...body,
      tool_choice: {
        type: 'allowed_tools',
        mode: 'auto',
        tools: [{ type: 'custom', name: 'apply_patch' }],
      },
    });
    expect(allowed.chat.tools?.map((tool) => 'function' in tool && tool.function.name)).toEqual([
      'apply_patch',
    ]);
    const namespaced = decode({
      ...body,
      tool_choice: { type: 'function', name: 'spawn_agent', namespace: 'multi_agent_v1' } as never,
    });
    expect(namespaced.chat.tool_choice).toEqual({
      type: 'function',
      function: { name: 'multi_agent_v1__spawn_agent' },
    });
  });

  it('reads custom tool calls, their outputs and namespaced calls in the input as tool calls and results', () => {
    const decoded = decode({
      model: 'gpt-5.5',
      input: [
        { role: 'user', content: 'Fix the bug' },
        { type: 'custom_tool_call', call_id: 'call_p', name: 'apply_patch', input: '*** Begin Patch\n' },
        {
          type: 'function_call',
          call_id: 'call_s',
          name: 'spawn_agent',
          namespace: 'multi_agent_v1',
          arguments: '{"message":"look"}',
        },
        { type: 'custom_tool_call_output', call_id: 'call_p', output: 'Done!' },
        { type: 'function_call_output', call_id: 'call_s', output: 'agent-1' },
      ],
    });
    expect(decoded.chat.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_p',
            type: 'function',
            function: { name: 'apply_patch', arguments: JSON.stringify({ input: '*** Begin Patch\n' }) },
          },
          {
            id: 'call_s',
            type: 'function',
            function: { name: 'multi_agent_v1__spawn_agent', arguments: '{"message":"look"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_p', content: 'Done!' },
      { role: 'tool', tool_call_id: 'call_s', content: 'agent-1' },
    ]);
    expect(decoded.droppedItemTypes).toEqual([]);
  });
});

describe('a tool search the client runs (Codex’s, over the MCP tools it holds back)', () => {
  const search = {
    type: 'tool_search',
    execution: 'client',
    description: 'Searches deferred tools.',
    parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  } as const;
  const found = {
    type: 'namespace',
    name: 'mcp__records',
    description: 'Records.',
    tools: [
      { type: 'function', name: 'lookup', description: 'Looks a record up.', parameters: { type: 'object' } },
    ],
  } as const;

  it('is offered as the function it is; OpenAI’s own server-run search is not', () => {
    const decoded = decode({
      model: 'gpt-5.5',
      input: 'Find it',
      tools: [search, { type: 'tool_search' }],
    });
    expect(decoded.chat.tools).toEqual([
      {
        type: 'function',
        function: { name: 'tool_search', description: search.description, parameters: search.parameters },
      },
      { type: 'tool_search', vendor_protocol: 'openai-responses', definition: { type: 'tool_search' } },
    ]);
    expect(decoded.toolOrigins.get('tool_search')).toEqual({ kind: 'tool_search', name: 'tool_search' });
  });

  it('reads its call and its output, and offers the tools it found from then on, once each', () => {
    const decoded = convertResponsesRequest({
      model: 'gpt-5.5',
      tools: [search],
      input: [
        { role: 'user', content: 'Find it' },
        {
          type: 'tool_search_call',
          call_id: 'call_t',
          execution: 'client',
          status: 'completed',
          arguments: { query: 'record' },
        },
        {
          type: 'tool_search_output',
          call_id: 'call_t',
          execution: 'client',
          status: 'completed',
          tools: [found],
        },
        // without `execution`: a search of the client's, since it has a call id
        { type: 'tool_search_output', call_id: 'call_u', tools: [found] },
        { type: 'tool_search_call', call_id: 'srv', execution: 'server', arguments: {} },
      ],
    });
    expect(decoded.chat.messages.slice(1, 3)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_t',
            type: 'function',
            function: { name: 'tool_search', arguments: '{"query":"record"}' },
          },
        ],
      },
      {
        role: 'tool',
        tool_call_id: 'call_t',
        content: 'These tools can be called now:\nmcp__records__lookup: Looks a record up.',
      },
    ]);
    expect(decoded.chat.tools?.map((tool) => 'function' in tool && tool.function.name)).toEqual([
      'tool_search',
      'mcp__records__lookup',
    ]);
    expect(decoded.toolOrigins.get('mcp__records__lookup')).toEqual({
      kind: 'function',
      name: 'lookup',
      namespace: 'mcp__records',
    });
    expect(decoded.chat.messages[3]).toMatchObject({ role: 'tool', tool_call_id: 'call_u' });
    expect(decoded.droppedItemTypes).toEqual(['tool_search_call']);
  });

  it('offers what a stored conversation’s searches found, before what this input’s found, for the store', () => {
    const other = { type: 'function', name: 'ping', parameters: { type: 'object' } } as const;
    const decoded = convertResponsesRequest(
      {
        model: 'gpt-5.5',
        tools: [search],
        previous_response_id: 'resp_1',
        input: [{ type: 'tool_search_output', call_id: 'call_v', tools: [other, found] }],
      },
      [found],
    );
    expect(decoded.chat.tools?.map((tool) => 'function' in tool && tool.function.name)).toEqual([
      'tool_search',
      'mcp__records__lookup',
      'ping',
    ]);
    expect(decoded.toolOrigins.get('mcp__records__lookup')).toMatchObject({ namespace: 'mcp__records' });
    expect(decoded.foundTools).toEqual([found, other]);
  });
});
