import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChannelType } from '@gatehouse/shared';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';

/**
 * The three coding agents, each through one tool loop on a model of another vendor (an OpenAI channel, so
 * every request is translated): a first streamed request in the agent's protocol that the model answers with
 * a tool call, then the same conversation with the tool's result, answered in words. The bodies and headers
 * have the shape the agents send (Claude Code 2.1.197, Codex CLI 0.171.0, Gemini CLI 0.61.0, read off the
 * wire with each CLI pointed at a gateway): their fields, roles, beta headers and tool kinds, with texts and
 * schemas of our own. A field or tool kind the gateway refused would stop the agent at its first request.
 */
let kit: RelayKit;
let upstream: OpenAIUpstream;

const MODEL = 'gpt-5-mini';
const GEMINI_MODEL = 'gemini-2.5-pro';
const MISTRAL_MODEL = 'devstral-medium-latest';
const MARKER = 'gatehouse-tool-ok';

beforeAll(async () => {
  upstream = await startOpenAIUpstream('agent-model');
  kit = await startRelayKit();
  await kit.createChannel({ upstream, models: `${MODEL},${GEMINI_MODEL}` });
  await kit.createChannel({ type: ChannelType.mistral, upstream, models: MISTRAL_MODEL });
  await kit.test.context.options.set(
    'ModelRatio',
    JSON.stringify({ [MODEL]: 0.125, [GEMINI_MODEL]: 0.625, [MISTRAL_MODEL]: 0.2 }),
  );
});
afterAll(async () => {
  await kit.close();
  await upstream.close();
});
beforeEach(() => {
  upstream.received.length = 0;
  upstream.behaviour = { words: ['The tool said: ', MARKER] };
});

async function newKey(): Promise<{ key: string; userId: number }> {
  const user = await kit.createUser({ quota: 10_000_000 });
  const { key } = await kit.createKey(user.id);
  return { key, userId: user.id };
}

/** A streamed POST; the answer's SSE events, their `data` parsed. */
async function streamEvents(
  path: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<Array<Record<string, unknown>>> {
  const response = await fetch(`${kit.gatewayUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  return text
    .split('\n\n')
    .map((block) =>
      block
        .split('\n')
        .find((line) => line.startsWith('data: '))
        ?.slice(6),
    )
    .filter((data): data is string => data !== undefined && data !== '[DONE]')
    .map((data) => JSON.parse(data) as Record<string, unknown>);
}

/** What the upstream model was asked, as chat completions. */
function upstreamMessages(index: number): Array<Record<string, unknown>> {
  return upstream.received[index].json?.messages as Array<Record<string, unknown>>;
}

/** What the first request offered the model: its function tools' names and its messages' roles. */
function firstAsked(): { tools: string[]; roles: unknown[] } {
  const tools = (upstream.received[0].json?.tools ?? []) as Array<{ function: { name: string } }>;
  return {
    tools: tools.map((tool) => tool.function.name),
    roles: upstreamMessages(0).map((message) => message.role),
  };
}

/**
 * The second request gave the model its call back (with the id the agent saw) and the tool's result as a tool
 * message answering that call; both requests were billed.
 */
async function expectResultReachedModel(userId: number, callId: string | undefined): Promise<void> {
  const [call, result] = upstreamMessages(1).slice(-2) as Array<{
    role: string;
    tool_calls?: Array<{ id: string }>;
    tool_call_id?: string;
    content: string;
  }>;
  expect(call.role).toBe('assistant');
  expect(result.role).toBe('tool');
  expect(call.tool_calls?.[0].id).toBe(callId);
  expect(result.tool_call_id).toBe(callId);
  expect(result.content).toContain(MARKER);
  expect(await kit.consumeLogs(userId)).toHaveLength(2);
}

describe('Claude Code (Anthropic Messages) on another vendor’s model', () => {
  const headers = (key: string) => ({
    'x-api-key': key,
    'anthropic-version': '2023-06-01',
    'anthropic-beta': [
      'claude-code-20250219',
      'interleaved-thinking-2025-05-14',
      'context-management-2025-06-27',
      'prompt-caching-scope-2026-01-05',
      'mid-conversation-system-2026-04-07',
      'effort-2025-11-24',
    ].join(','),
    'anthropic-dangerous-direct-browser-access': 'true',
    'x-app': 'cli',
    'user-agent': 'claude-cli/2.1.197 (external, sdk-cli)',
  });
  const firstTurns = [
    {
      role: 'user',
      content: [
        { type: 'text', text: '<system-reminder>\nThe project uses npm.\n</system-reminder>' },
        { type: 'text', text: 'run the marker command', cache_control: { type: 'ephemeral' } },
      ],
    },
    { role: 'system', content: 'Available agent types for the Agent tool: general-purpose.' },
  ];
  const body = (messages: unknown[]) => ({
    model: MODEL,
    messages,
    system: [
      { type: 'text', text: 'x-anthropic-billing-header: cc_version=2.1.197; cc_entrypoint=sdk-cli;' },
      { type: 'text', text: 'You are a coding agent.', cache_control: { type: 'ephemeral' } },
    ],
    tools: [
      {
        name: 'Bash',
        description: 'Runs a shell command.',
        input_schema: {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          properties: {
            command: { description: 'The command to run', type: 'string' },
            timeout: { description: 'Milliseconds', type: 'number' },
            description: { description: 'What it does', type: 'string' },
          },
          required: ['command'],
          additionalProperties: false,
        },
      },
      {
        name: 'Read',
        description: 'Reads a file.',
        input_schema: {
          type: 'object',
          properties: { file_path: { type: 'string' } },
          required: ['file_path'],
        },
      },
    ],
    metadata: { user_id: JSON.stringify({ device_id: 'device-1', session_id: 'session-1' }) },
    max_tokens: 32000,
    thinking: { type: 'adaptive' },
    context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
    output_config: { effort: 'high' },
    stream: true,
  });

  it('runs a Bash tool call and reads its result back', async () => {
    const { key, userId } = await newKey();
    upstream.behaviour.toolCall = { name: 'Bash', arguments: JSON.stringify({ command: `echo ${MARKER}` }) };
    const first = await streamEvents('/v1/messages?beta=true', headers(key), body(firstTurns));
    const toolUse = first.find((event) => event.type === 'content_block_start')?.content_block as {
      type: string;
      id: string;
      name: string;
    };
    expect(toolUse).toMatchObject({ type: 'tool_use', name: 'Bash' });
    const input = first
      .filter((event) => event.type === 'content_block_delta')
      .map((event) => (event.delta as { partial_json?: string }).partial_json ?? '')
      .join('');
    expect(JSON.parse(input)).toEqual({ command: `echo ${MARKER}` });
    expect(first.find((event) => event.type === 'message_delta')?.delta).toMatchObject({
      stop_reason: 'tool_use',
    });
    // The model got the tools as functions and the system text, the mid-conversation one in its place.
    expect(firstAsked()).toEqual({ tools: ['Bash', 'Read'], roles: ['system', 'user', 'system'] });

    const second = await streamEvents(
      '/v1/messages?beta=true',
      headers(key),
      body([
        ...firstTurns,
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: toolUse.id, name: 'Bash', input: JSON.parse(input) as object }],
        },
        {
          role: 'user',
          content: [
            {
              tool_use_id: toolUse.id,
              type: 'tool_result',
              content: MARKER,
              is_error: false,
              cache_control: { type: 'ephemeral' },
            },
          ],
        },
      ]),
    );
    const words = second
      .filter((event) => event.type === 'content_block_delta')
      .map((event) => (event.delta as { text?: string }).text ?? '')
      .join('');
    expect(words).toBe(`The tool said: ${MARKER}`);
    expect(second.find((event) => event.type === 'message_delta')?.delta).toMatchObject({
      stop_reason: 'end_turn',
    });
    await expectResultReachedModel(userId, toolUse.id);
  });
});

describe('Codex CLI (OpenAI Responses) on a chat-completions model', () => {
  const headers = (key: string) => ({
    authorization: `Bearer ${key}`,
    accept: 'text/event-stream',
    originator: 'codex_exec',
    'user-agent': 'codex_exec/0.171.0 (Debian 12.0.0; x86_64)',
    'x-codex-beta-features': 'remote_compaction_v2',
    'session-id': 'thread-1',
    'x-client-request-id': 'thread-1',
  });
  const firstInput = [
    {
      type: 'message',
      id: 'msg_1',
      role: 'developer',
      content: [{ type: 'input_text', text: 'You are a coding agent running in a terminal.' }],
    },
    {
      type: 'message',
      id: 'msg_2',
      role: 'user',
      content: [
        { type: 'input_text', text: '<environment_context>\n  <cwd>/work</cwd>\n</environment_context>' },
      ],
    },
    {
      type: 'message',
      id: 'msg_3',
      role: 'user',
      content: [{ type: 'input_text', text: 'run the marker command' }],
    },
  ];
  const body = (input: unknown[]) => ({
    model: MODEL,
    stream: true,
    input,
    tools: [
      {
        type: 'function',
        name: 'exec_command',
        description: 'Runs a command in a terminal.',
        strict: false,
        parameters: {
          type: 'object',
          properties: { cmd: { type: 'string' }, workdir: { type: 'string' } },
          required: ['cmd'],
          additionalProperties: false,
        },
      },
      {
        type: 'namespace',
        name: 'multi_agent_v1',
        description: 'Tools for sub-agents.',
        tools: [
          {
            type: 'function',
            name: 'spawn_agent',
            description: 'Starts a sub-agent.',
            strict: false,
            parameters: { type: 'object', properties: { message: { type: 'string' } } },
          },
        ],
      },
      { type: 'web_search', external_web_access: false },
    ],
    tool_choice: 'auto',
    parallel_tool_calls: true,
    reasoning: { summary: 'auto' },
    store: false,
    include: ['reasoning.encrypted_content'],
    prompt_cache_key: 'thread-1',
    client_metadata: { turn_id: 'turn-1', session_id: 'thread-1' },
  });

  it('runs exec_command and reads its output back', async () => {
    const { key, userId } = await newKey();
    upstream.behaviour.toolCall = {
      name: 'exec_command',
      arguments: JSON.stringify({ cmd: `echo ${MARKER}` }),
    };
    const first = await streamEvents('/v1/responses', headers(key), body(firstInput));
    const call = first.find(
      (event) =>
        event.type === 'response.output_item.done' &&
        (event.item as { type?: string }).type === 'function_call',
    )?.item as { name: string; arguments: string; call_id: string };
    expect(call).toMatchObject({
      name: 'exec_command',
      arguments: JSON.stringify({ cmd: `echo ${MARKER}` }),
    });
    expect(first.at(-1)?.type).toBe('response.completed');
    // Function tools reach the chat model; OpenAI's own tools (namespace, web_search) only a Responses upstream runs.
    expect(firstAsked()).toEqual({ tools: ['exec_command'], roles: ['developer', 'user', 'user'] });

    const second = await streamEvents(
      '/v1/responses',
      headers(key),
      body([
        ...firstInput,
        {
          type: 'function_call',
          status: 'completed',
          id: 'fc_1',
          name: call.name,
          arguments: call.arguments,
          call_id: call.call_id,
        },
        { type: 'function_call_output', id: 'fco_1', call_id: call.call_id, output: MARKER },
      ]),
    );
    const done = second.find((event) => event.type === 'response.completed')?.response as {
      output: Array<{ type: string; content?: Array<{ text: string }> }>;
    };
    const message = done.output.find((item) => item.type === 'message');
    expect(message?.content?.[0].text).toBe(`The tool said: ${MARKER}`);
    await expectResultReachedModel(userId, call.call_id);
  });
});

describe('Gemini CLI (Gemini API) on a chat-completions model', () => {
  const path = `/v1beta/models/${GEMINI_MODEL}:streamGenerateContent?alt=sse`;
  const headers = (key: string) => ({
    'x-goog-api-key': key,
    'user-agent': `GeminiCLI/0.61.0/${GEMINI_MODEL} (linux; x64)`,
    'x-goog-api-client': 'google-genai-sdk/1.30.0 gl-node/v20.20.2',
  });
  const firstContents = [
    {
      role: 'user',
      parts: [
        { text: '<session_context>\nThe working directory is /work.\n</session_context>' },
        { text: 'list the directory' },
      ],
    },
  ];
  const body = (contents: unknown[]) => ({
    contents,
    systemInstruction: { role: 'user', parts: [{ text: 'You are a command-line agent.' }] },
    tools: [
      {
        functionDeclarations: [
          {
            name: 'list_directory',
            description: 'Lists a directory.',
            parametersJsonSchema: {
              type: 'object',
              properties: { dir_path: { type: 'string' } },
              required: ['dir_path'],
            },
          },
          {
            name: 'read_file',
            description: 'Reads a file.',
            parametersJsonSchema: { type: 'object', properties: { file_path: { type: 'string' } } },
          },
        ],
      },
    ],
    generationConfig: {
      temperature: 1,
      topP: 0.95,
      topK: 64,
      thinkingConfig: { includeThoughts: true, thinkingBudget: 8192 },
    },
  });

  it('runs list_directory and reads its response back', async () => {
    const { key, userId } = await newKey();
    upstream.behaviour.toolCall = { name: 'list_directory', arguments: JSON.stringify({ dir_path: '.' }) };
    const first = await streamEvents(path, headers(key), body(firstContents));
    const parts = first.flatMap(
      (event) =>
        (event.candidates as Array<{ content?: { parts?: Array<Record<string, unknown>> } }> | undefined)?.[0]
          ?.content?.parts ?? [],
    );
    const call = parts.find((part) => part.functionCall)?.functionCall as {
      id?: string;
      name: string;
      args: unknown;
    };
    expect(call).toMatchObject({ name: 'list_directory', args: { dir_path: '.' } });

    const second = await streamEvents(
      path,
      headers(key),
      body([
        ...firstContents,
        {
          role: 'model',
          parts: [{ functionCall: call, thoughtSignature: 'skip_thought_signature_validator' }],
        },
        {
          role: 'user',
          parts: [{ functionResponse: { id: call.id, name: call.name, response: { output: MARKER } } }],
        },
      ]),
    );
    const words = second
      .flatMap(
        (event) =>
          (event.candidates as Array<{ content?: { parts?: Array<{ text?: string }> } }> | undefined)?.[0]
            ?.content?.parts ?? [],
      )
      .map((part) => part.text ?? '')
      .join('');
    expect(words).toBe(`The tool said: ${MARKER}`);
    // The thought signature Gemini CLI puts on the call rides in the canonical id and is dropped for the chat model.
    await expectResultReachedModel(userId, call.id);
  });
});

describe('a conversation that moves to Mistral', () => {
  it('gets tool call ids Mistral takes (nine letters and digits), the call and its result still paired', async () => {
    // Claude Code after /model: the history's ids are Anthropic's, which Mistral refuses with a 400.
    const { key } = await newKey();
    const anthropicId = 'toolu_01A09q90qw90lq917835lq9';
    const events = await streamEvents(
      '/v1/messages',
      { 'x-api-key': key, 'anthropic-version': '2023-06-01' },
      {
        model: MISTRAL_MODEL,
        max_tokens: 1000,
        stream: true,
        messages: [
          { role: 'user', content: 'run the marker command' },
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: anthropicId, name: 'Bash', input: { command: 'echo hi' } }],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: anthropicId, content: MARKER }] },
        ],
      },
    );
    expect(events.find((event) => event.type === 'message_stop')).toBeDefined();
    expect(upstream.received[0].url).toBe('/v1/chat/completions');
    const [, call, result] = upstreamMessages(0) as Array<{
      tool_calls?: Array<{ id: string }>;
      tool_call_id?: string;
    }>;
    const id = call.tool_calls?.[0].id;
    expect(id).toMatch(/^[A-Za-z0-9]{9}$/);
    expect(result.tool_call_id).toBe(id);
  });
});
