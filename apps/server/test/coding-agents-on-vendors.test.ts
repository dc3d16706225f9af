import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChannelType } from '@gatehouse/shared';
import { startAnthropicStandIn, type AnthropicStandIn } from './support/anthropic-stand-in';
import {
  claudeCodeLoop,
  codexLoop,
  geminiCliLoop,
  streamEvents,
  type AgentLoop,
  type SseData,
} from './support/coding-agent-loops';
import { codex } from './support/coding-agent-requests';
import { GEMINI_STAND_IN_KEY, startGeminiStandIn, type GeminiStandIn } from './support/gemini-stand-in';
import { startRelayKit, type RelayKit } from './support/relay-kit';
import type {
  GeminiContent,
  GeminiGenerateContentResponse,
  GeminiPart,
} from '../src/providers/gemini/gemini-wire-types';

/**
 * The coding agents' tool loops on the native channels of the other vendors: Claude Code and Codex on a Gemini
 * channel, Codex and Gemini CLI on an Anthropic channel. Both ways are translated: the agent's tools and its
 * call's result into the vendor's form, the vendor's call back into the agent's. Each stand-in model calls
 * the tool the test names (Gemini's call with a thought signature, which must come back with it), then
 * answers with the result it was given, which shows the result reached it paired with its call.
 */
let kit: RelayKit;
let anthropic: AnthropicStandIn;
let gemini: GeminiStandIn;

const CLAUDE_MODEL = 'claude-sonnet-4-5';
const GEMINI_MODEL = 'gemini-2.5-flash';
const MARKER = 'gatehouse-tool-ok';

/** The call the stand-in models make while no result has come back. */
let scriptedCall: { name: string; args: Record<string, unknown> };

type Block = { type?: string; id?: string; name?: string; tool_use_id?: string; content?: unknown };
type Turn = { role: string; content: string | Block[] };

/**
 * Anthropic: a tool_use of the scripted tool, or, once the last turn holds that call's tool_result, the
 * result's text.
 */
function answerAsClaude(body: Record<string, unknown>) {
  const messages = body.messages as Turn[];
  const blocks = (turn: Turn | undefined) => (Array.isArray(turn?.content) ? turn.content : []);
  const result = blocks(messages.at(-1)).find((block) => block.type === 'tool_result');
  const use = blocks(messages.at(-2)).find((block) => block.type === 'tool_use');
  if (!result || use?.name !== scriptedCall.name) {
    // A model calls only a tool it was offered.
    expect((body.tools as Array<{ name: string }>).map((tool) => tool.name)).toContain(scriptedCall.name);
    return {
      content: [
        {
          type: 'tool_use' as const,
          id: `toolu_01${messages.length}`,
          name: scriptedCall.name,
          input: scriptedCall.args,
        },
      ],
      stop_reason: 'tool_use' as const,
    };
  }
  expect(result.tool_use_id).toBe(use.id);
  const text = typeof result.content === 'string' ? result.content : JSON.stringify(result.content);
  return {
    content: [{ type: 'text' as const, text: `The tool said: ${text}` }],
    stop_reason: 'end_turn' as const,
  };
}

/** A thought signature as Gemini sends one: bytes in base64, '+' and '/' among them. */
const THOUGHT_SIGNATURE = Buffer.from([0x0a, 0x24, 0x01, 0xfb, 0xff, 0xbf, 0x12, 0x34, 0x56, 0xfe]).toString(
  'base64',
);

/** Gemini: a functionCall, or, once the last content holds its functionResponse, the response. */
function answerAsGemini(body: Record<string, unknown> | null): GeminiGenerateContentResponse {
  const contents = (body?.contents ?? []) as GeminiContent[];
  const response = contents.at(-1)?.parts?.find((part) => part.functionResponse)?.functionResponse;
  let parts: GeminiPart[];
  if (!response) {
    const tools = (body?.tools ?? []) as Array<{ functionDeclarations?: Array<{ name: string }> }>;
    const offered = tools.flatMap((tool) => tool.functionDeclarations ?? []).map((each) => each.name);
    expect(offered).toContain(scriptedCall.name);
    parts = [
      {
        functionCall: { id: 'vendor-call-1', name: scriptedCall.name, args: scriptedCall.args },
        thoughtSignature: THOUGHT_SIGNATURE,
      },
    ];
  } else {
    const callPart = contents.at(-2)?.parts?.find((part) => part.functionCall);
    expect(response.name).toBe(callPart?.functionCall?.name);
    expect(response.id).toBe(callPart?.functionCall?.id);
    // Gemini 3 refuses a conversation whose function call lost the signature it came with.
    expect(callPart?.thoughtSignature).toBe(THOUGHT_SIGNATURE);
    parts = [{ text: `The tool said: ${JSON.stringify(response.response)}` }];
  }
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 40, candidatesTokenCount: 6, totalTokenCount: 46 },
    modelVersion: GEMINI_MODEL,
  };
}

beforeAll(async () => {
  anthropic = await startAnthropicStandIn({ behaviour: { answer: answerAsClaude } });
  gemini = await startGeminiStandIn({
    models: [GEMINI_MODEL],
    answer: (request) => answerAsGemini(request.body),
  });
  kit = await startRelayKit();
  await kit.createChannel({
    type: ChannelType.anthropic,
    baseUrl: anthropic.url,
    key: anthropic.apiKey,
    models: CLAUDE_MODEL,
  });
  await kit.createChannel({
    type: ChannelType.gemini,
    baseUrl: gemini.url,
    key: GEMINI_STAND_IN_KEY,
    models: GEMINI_MODEL,
  });
  await kit.test.context.options.set(
    'ModelRatio',
    JSON.stringify({ [CLAUDE_MODEL]: 1.5, [GEMINI_MODEL]: 0.15 }),
  );
});
afterAll(async () => {
  await kit.close();
  await anthropic.close();
  await gemini.close();
});
beforeEach(() => {
  anthropic.received.length = 0;
  gemini.requests.length = 0;
});

/** The loop: the call reaches the agent as it reads calls, its result reaches the model, both are billed. */
async function runLoop(loop: AgentLoop, model: string): Promise<{ args: unknown; text: string }> {
  const user = await kit.createUser({ quota: 10_000_000 });
  const { key } = await kit.createKey(user.id);
  const call = loop.readCall(await loop.first(kit.gatewayUrl, key, model));
  expect(call.name).toBe(scriptedCall.name);
  const text = loop.readText(await loop.second(kit.gatewayUrl, key, model, call, MARKER));
  expect(text).toContain('The tool said: ');
  expect(text).toContain(MARKER);
  expect(await kit.consumeLogs(user.id)).toHaveLength(2);
  return { args: call.args, text };
}

describe('on a Gemini channel', () => {
  it('Claude Code runs its Bash tool', async () => {
    scriptedCall = { name: 'Bash', args: { command: `echo ${MARKER}` } };
    expect((await runLoop(claudeCodeLoop, GEMINI_MODEL)).args).toEqual(scriptedCall.args);
    // Its system texts, the mid-conversation one included, went where Gemini keeps them.
    const [first] = gemini.requests;
    expect(JSON.stringify(first.body?.systemInstruction)).toContain('You are a coding agent.');
  });

  it('Codex runs exec_command', async () => {
    scriptedCall = { name: 'exec_command', args: { cmd: `echo ${MARKER}` } };
    expect((await runLoop(codexLoop, GEMINI_MODEL)).args).toEqual(scriptedCall.args);
    const declared = (
      gemini.requests[0].body?.tools as Array<{ functionDeclarations?: Array<{ name: string }> }>
    )
      .flatMap((tool) => tool.functionDeclarations ?? [])
      .map((declaration) => declaration.name);
    expect(declared).toEqual(['exec_command', 'apply_patch', 'tool_search', 'multi_agent_v1__spawn_agent']);
  });
});

describe('on an Anthropic channel', () => {
  it('Codex applies a patch with its custom apply_patch tool', async () => {
    const patch = `*** Begin Patch\n*** Add File: marker.txt\n+${MARKER}\n*** End Patch\n`;
    scriptedCall = { name: 'apply_patch', args: { input: patch } };
    // Codex gets the patch as a custom tool's input, as OpenAI would send it.
    expect((await runLoop(codexLoop, CLAUDE_MODEL)).args).toBe(patch);
    const tool = (anthropic.received[0].json?.tools as Array<{ name: string; input_schema: unknown }>).find(
      (each) => each.name === 'apply_patch',
    );
    expect(tool?.input_schema).toMatchObject({
      properties: { input: { type: 'string' } },
      required: ['input'],
    });
  });

  it('Codex finds an MCP tool with its tool search, then calls it in its namespace', async () => {
    const user = await kit.createUser({ quota: 10_000_000 });
    const { key } = await kit.createKey(user.id);
    const send = (input: unknown[]) =>
      streamEvents(`${kit.gatewayUrl}/v1/responses`, codex.headers(key), {
        ...codex.body(input),
        model: CLAUDE_MODEL,
      });
    const doneItem = (events: SseData[], type: string) =>
      events.find(
        (event) => event.type === 'response.output_item.done' && (event.item as SseData).type === type,
      )?.item as SseData;

    scriptedCall = { name: 'tool_search', args: { query: 'records' } };
    const search = doneItem(await send(codex.firstInput), 'tool_search_call');
    expect(search).toMatchObject({ arguments: { query: 'records' }, execution: 'client' });

    // Codex answers with the tools it found, MCP tools in their server's namespace; the model calls one.
    const found = {
      type: 'namespace',
      name: 'mcp__records',
      description: 'Tools of the records MCP server.',
      tools: [
        {
          type: 'function',
          name: 'lookup',
          description: 'Looks a record up.',
          parameters: { type: 'object' },
        },
      ],
    };
    const afterSearch = [
      ...codex.firstInput,
      search,
      {
        type: 'tool_search_output',
        call_id: search.call_id,
        execution: 'client',
        status: 'completed',
        tools: [found],
      },
    ];
    scriptedCall = { name: 'mcp__records__lookup', args: { q: 'x' } };
    const call = doneItem(await send(afterSearch), 'function_call');
    expect(call).toMatchObject({ name: 'lookup', namespace: 'mcp__records', arguments: '{"q":"x"}' });

    const last = await send([
      ...afterSearch,
      call,
      { type: 'function_call_output', call_id: call.call_id, output: MARKER },
    ]);
    expect(codexLoop.readText(last)).toBe(`The tool said: ${MARKER}`);
    expect(await kit.consumeLogs(user.id)).toHaveLength(3);
  });

  it('Gemini CLI runs list_directory', async () => {
    scriptedCall = { name: 'list_directory', args: { dir_path: '.' } };
    expect((await runLoop(geminiCliLoop, CLAUDE_MODEL)).args).toEqual(scriptedCall.args);
  });
});
