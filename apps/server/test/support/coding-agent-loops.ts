import { expect } from 'vitest';
import { claudeCode, codex, geminiCli } from './coding-agent-requests';

/** One server-sent event's `data`, parsed. */
export type SseData = Record<string, unknown>;

/** A streamed POST; the answer's SSE events, their `data` parsed ([DONE] left out). */
export async function streamEvents(
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<SseData[]> {
  const response = await fetch(url, {
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
    .map((data) => JSON.parse(data) as SseData);
}

/** A tool call as the agent read it from the stream. */
export interface AgentCall {
  /** the id the agent answers the call with (Gemini CLI's may be absent) */
  id: string | undefined;
  name: string;
  /** the arguments, parsed; a custom tool's input text */
  args: unknown;
  /** the output item itself (Codex sends it back as it came) */
  item?: SseData;
}

/**
 * One coding agent's tool loop, in the requests it sends (support/coding-agent-requests.ts): the user's
 * request, then the same conversation with the model's call and the tool's result; and how it reads the
 * model's call and words out of its protocol's stream.
 */
export interface AgentLoop {
  name: string;
  first(gatewayUrl: string, key: string, model: string): Promise<SseData[]>;
  readCall(events: SseData[]): AgentCall;
  second(gatewayUrl: string, key: string, model: string, call: AgentCall, result: string): Promise<SseData[]>;
  readText(events: SseData[]): string;
}

export const claudeCodeLoop: AgentLoop = {
  name: 'Claude Code',
  first: (gatewayUrl, key, model) =>
    streamEvents(`${gatewayUrl}/v1/messages?beta=true`, claudeCode.headers(key), {
      ...claudeCode.body(claudeCode.firstTurns),
      model,
    }),
  readCall(events) {
    const block = events.find((event) => event.type === 'content_block_start')?.content_block as {
      type: string;
      id: string;
      name: string;
    };
    expect(block.type).toBe('tool_use');
    const input = events
      .filter((event) => event.type === 'content_block_delta')
      .map((event) => (event.delta as { partial_json?: string }).partial_json ?? '')
      .join('');
    return { id: block.id, name: block.name, args: JSON.parse(input) };
  },
  second: (gatewayUrl, key, model, call, result) =>
    streamEvents(`${gatewayUrl}/v1/messages?beta=true`, claudeCode.headers(key), {
      ...claudeCode.body([
        ...claudeCode.firstTurns,
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: call.id, name: call.name, input: call.args }],
        },
        {
          role: 'user',
          content: [
            {
              tool_use_id: call.id,
              type: 'tool_result',
              content: result,
              is_error: false,
              cache_control: { type: 'ephemeral' },
            },
          ],
        },
      ]),
      model,
    }),
  readText: (events) =>
    events
      .filter((event) => event.type === 'content_block_delta')
      .map((event) => (event.delta as { text?: string }).text ?? '')
      .join(''),
};

const isToolCallItem = (item: { type?: string }) =>
  item.type === 'function_call' || item.type === 'custom_tool_call';

export const codexLoop: AgentLoop = {
  name: 'Codex CLI',
  first: (gatewayUrl, key, model) =>
    streamEvents(`${gatewayUrl}/v1/responses`, codex.headers(key), {
      ...codex.body(codex.firstInput),
      model,
    }),
  readCall(events) {
    const item = events.find(
      (event) =>
        event.type === 'response.output_item.done' && isToolCallItem(event.item as { type?: string }),
    )?.item as { type: string; call_id: string; name: string; arguments?: string; input?: string };
    expect(events.at(-1)?.type).toBe('response.completed');
    const args = item.type === 'custom_tool_call' ? item.input : JSON.parse(item.arguments ?? '');
    return { id: item.call_id, name: item.name, args, item };
  },
  second: (gatewayUrl, key, model, call, result) =>
    streamEvents(`${gatewayUrl}/v1/responses`, codex.headers(key), {
      ...codex.body([
        ...codex.firstInput,
        call.item,
        {
          type: call.item?.type === 'custom_tool_call' ? 'custom_tool_call_output' : 'function_call_output',
          call_id: call.id,
          output: result,
        },
      ]),
      model,
    }),
  readText(events) {
    const done = events.find((event) => event.type === 'response.completed')?.response as {
      output: Array<{ type: string; content?: Array<{ text: string }> }>;
    };
    return done.output.find((item) => item.type === 'message')?.content?.[0].text ?? '';
  },
};

const geminiParts = (events: SseData[]) =>
  events.flatMap(
    (event) =>
      (event.candidates as Array<{ content?: { parts?: Array<Record<string, unknown>> } }> | undefined)?.[0]
        ?.content?.parts ?? [],
  );

const geminiPath = (model: string) => `/v1beta/models/${model}:streamGenerateContent?alt=sse`;

export const geminiCliLoop: AgentLoop = {
  name: 'Gemini CLI',
  first: (gatewayUrl, key, model) =>
    streamEvents(
      `${gatewayUrl}${geminiPath(model)}`,
      geminiCli.headers(key),
      geminiCli.body(geminiCli.firstContents),
    ),
  readCall(events) {
    const call = geminiParts(events).find((part) => part.functionCall)?.functionCall as {
      id?: string;
      name: string;
      args: unknown;
    };
    return { id: call.id, name: call.name, args: call.args };
  },
  second: (gatewayUrl, key, model, call, result) =>
    streamEvents(
      `${gatewayUrl}${geminiPath(model)}`,
      geminiCli.headers(key),
      geminiCli.body([
        ...geminiCli.firstContents,
        {
          role: 'model',
          parts: [
            {
              functionCall: { ...(call.id && { id: call.id }), name: call.name, args: call.args },
              thoughtSignature: 'skip_thought_signature_validator',
            },
          ],
        },
        {
          role: 'user',
          parts: [
            {
              functionResponse: {
                ...(call.id && { id: call.id }),
                name: call.name,
                response: { output: result },
              },
            },
          ],
        },
      ]),
    ),
  readText: (events) =>
    geminiParts(events)
      .map((part) => (typeof part.text === 'string' ? part.text : ''))
      .join(''),
};
