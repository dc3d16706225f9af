import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChannelType } from '@gatehouse/shared';
import { claudeCodeLoop, codexLoop, geminiCliLoop, streamEvents } from './support/coding-agent-loops';
import { AGENT_GEMINI_MODEL, AGENT_MODEL } from './support/coding-agent-requests';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';

/**
 * The three coding agents, each through one tool loop on a model of another vendor (an OpenAI channel, so
 * every request is translated): a first streamed request in the agent's protocol that the model answers with
 * a tool call, then the same conversation with the tool's result, answered in words. The requests have the
 * shapes the agents send (support/coding-agent-requests.ts). A field or tool kind the gateway refused would
 * stop the agent at its first request.
 */
let kit: RelayKit;
let upstream: OpenAIUpstream;

const MODEL = AGENT_MODEL;
const GEMINI_MODEL = AGENT_GEMINI_MODEL;
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
  it('runs a Bash tool call and reads its result back', async () => {
    const { key, userId } = await newKey();
    upstream.behaviour.toolCall = { name: 'Bash', arguments: JSON.stringify({ command: `echo ${MARKER}` }) };
    const first = await claudeCodeLoop.first(kit.gatewayUrl, key, MODEL);
    const call = claudeCodeLoop.readCall(first);
    expect(call).toMatchObject({ name: 'Bash', args: { command: `echo ${MARKER}` } });
    expect(first.find((event) => event.type === 'message_delta')?.delta).toMatchObject({
      stop_reason: 'tool_use',
    });
    // The model got the tools as functions and the system text, the mid-conversation one in its place.
    expect(firstAsked()).toEqual({ tools: ['Bash', 'Read'], roles: ['system', 'user', 'system'] });

    const second = await claudeCodeLoop.second(kit.gatewayUrl, key, MODEL, call, MARKER);
    expect(claudeCodeLoop.readText(second)).toBe(`The tool said: ${MARKER}`);
    expect(second.find((event) => event.type === 'message_delta')?.delta).toMatchObject({
      stop_reason: 'end_turn',
    });
    await expectResultReachedModel(userId, call.id);
  });
});

describe('Codex CLI (OpenAI Responses) on a chat-completions model', () => {
  it('runs exec_command and reads its output back', async () => {
    const { key, userId } = await newKey();
    upstream.behaviour.toolCall = {
      name: 'exec_command',
      arguments: JSON.stringify({ cmd: `echo ${MARKER}` }),
    };
    const first = await codexLoop.first(kit.gatewayUrl, key, MODEL);
    const call = codexLoop.readCall(first);
    expect(call.item).toMatchObject({
      type: 'function_call',
      name: 'exec_command',
      arguments: JSON.stringify({ cmd: `echo ${MARKER}` }),
    });
    // Function tools reach the chat model, a custom tool as a function of one string, the client's tool search
    // as a function, a namespace's tools as namespace__name; OpenAI's own web_search does not.
    expect(firstAsked()).toEqual({
      tools: ['exec_command', 'apply_patch', 'tool_search', 'multi_agent_v1__spawn_agent'],
      roles: ['developer', 'user', 'user'],
    });

    const second = await codexLoop.second(kit.gatewayUrl, key, MODEL, call, MARKER);
    expect(codexLoop.readText(second)).toBe(`The tool said: ${MARKER}`);
    await expectResultReachedModel(userId, call.id);
  });

  it('gets a call of its custom apply_patch tool as a custom_tool_call, and its output reaches the model', async () => {
    const { key, userId } = await newKey();
    const patch = `*** Begin Patch\n*** Add File: marker.txt\n+${MARKER}\n*** End Patch\n`;
    upstream.behaviour.toolCall = { name: 'apply_patch', arguments: JSON.stringify({ input: patch }) };
    const first = await codexLoop.first(kit.gatewayUrl, key, MODEL);
    const call = codexLoop.readCall(first);
    expect(call.item).toMatchObject({ type: 'custom_tool_call', name: 'apply_patch', input: patch });
    expect(first.find((event) => event.type === 'response.custom_tool_call_input.done')).toMatchObject({
      input: patch,
    });

    await codexLoop.second(kit.gatewayUrl, key, MODEL, call, `Success. ${MARKER}`);
    const [asked] = upstreamMessages(1).slice(-2) as Array<{ tool_calls: Array<{ function: unknown }> }>;
    expect(asked.tool_calls[0].function).toEqual({
      name: 'apply_patch',
      arguments: JSON.stringify({ input: patch }),
    });
    await expectResultReachedModel(userId, call.id);
  });
});

describe('Gemini CLI (Gemini API) on a chat-completions model', () => {
  it('runs list_directory and reads its response back', async () => {
    const { key, userId } = await newKey();
    upstream.behaviour.toolCall = { name: 'list_directory', arguments: JSON.stringify({ dir_path: '.' }) };
    const first = await geminiCliLoop.first(kit.gatewayUrl, key, GEMINI_MODEL);
    const call = geminiCliLoop.readCall(first);
    expect(call).toMatchObject({ name: 'list_directory', args: { dir_path: '.' } });

    const second = await geminiCliLoop.second(kit.gatewayUrl, key, GEMINI_MODEL, call, MARKER);
    expect(geminiCliLoop.readText(second)).toBe(`The tool said: ${MARKER}`);
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
      `${kit.gatewayUrl}/v1/messages`,
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
