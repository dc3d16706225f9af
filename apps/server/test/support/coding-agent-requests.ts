/**
 * What the three coding agents send, in the shapes read off the wire with each CLI pointed at a gateway
 * (Claude Code 2.1.197, Codex CLI 0.171.0, Gemini CLI 0.61.0): their fields, roles, beta headers and tool
 * kinds, with texts and schemas of our own. `body` builds a request of the conversation so far; the first
 * turns are the user's request, as the agent opens a session.
 */

/** the model behind the OpenAI channel that Claude Code and Codex ask for */
export const AGENT_MODEL = 'gpt-5-mini';
/** the model Gemini CLI asks for, served by the same OpenAI channel */
export const AGENT_GEMINI_MODEL = 'gemini-2.5-pro';

/** Claude Code: POST /v1/messages?beta=true, streamed. */
function claudeCodeShapes() {
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
    model: AGENT_MODEL,
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
  return { headers, firstTurns, body };
}

/** Codex CLI: POST /v1/responses, streamed. */
function codexShapes() {
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
    model: AGENT_MODEL,
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
        type: 'custom',
        name: 'apply_patch',
        description: 'Edits files. This is a FREEFORM tool, so do not wrap the patch in JSON.',
        format: {
          type: 'grammar',
          syntax: 'lark',
          definition: 'start: begin_patch hunk+ end_patch\nbegin_patch: "*** Begin Patch" LF',
        },
      },
      {
        type: 'tool_search',
        execution: 'client',
        description: 'Searches deferred tools.',
        parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
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
  return { headers, firstInput, body };
}

/** Gemini CLI: streamGenerateContent with ?alt=sse. */
function geminiCliShapes() {
  const path = `/v1beta/models/${AGENT_GEMINI_MODEL}:streamGenerateContent?alt=sse`;
  const headers = (key: string) => ({
    'x-goog-api-key': key,
    'user-agent': `GeminiCLI/0.61.0/${AGENT_GEMINI_MODEL} (linux; x64)`,
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
  return { path, headers, firstContents, body };
}

export const claudeCode = claudeCodeShapes();
export const codex = codexShapes();
export const geminiCli = geminiCliShapes();
