import { buildRequestTarget, type Mode, type RequestTarget } from './bench-request';

/** Priced by Gatehouse's built-in ratios and served by the bench's Anthropic channel (the mock's /v1/messages). */
export const BENCH_CLAUDE_MODEL = 'claude-haiku-4-5';

/**
 * The ways a client reaches an upstream through Gatehouse that the protocol table compares:
 * - `chat`: OpenAI chat completions to the OpenAI channel (pass-through), the reference;
 * - `messages`: Anthropic Messages to the Anthropic channel (pass-through);
 * - `chat-on-anthropic`: OpenAI chat completions to the Anthropic channel (translated by the native adapter).
 */
export type ProtocolPath = 'chat' | 'messages' | 'chat-on-anthropic';

export const PROTOCOL_PATHS: readonly ProtocolPath[] = ['chat', 'messages', 'chat-on-anthropic'];

/** The bench's chat request (bench-request.ts) as an Anthropic client sends it. */
export function buildMessagesBody(mode: Mode): string {
  return JSON.stringify({
    model: BENCH_CLAUDE_MODEL,
    max_tokens: 64,
    system: 'You are a helpful assistant.',
    messages: [{ role: 'user', content: 'Say hello to the benchmark in one short sentence.' }],
    temperature: 0.7,
    ...(mode === 'stream' ? { stream: true } : {}),
  });
}

export function buildProtocolTarget(
  baseUrl: string,
  apiKey: string,
  path: ProtocolPath,
  mode: Mode,
): RequestTarget {
  if (path === 'chat') return buildRequestTarget(baseUrl, apiKey, mode);
  if (path === 'chat-on-anthropic') {
    const chat = buildRequestTarget(baseUrl, apiKey, mode);
    const body = JSON.parse(chat.body) as { model: string };
    return { ...chat, body: JSON.stringify({ ...body, model: BENCH_CLAUDE_MODEL }) };
  }
  return {
    url: `${baseUrl}/v1/messages`,
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey, 'anthropic-version': '2023-06-01' },
    body: buildMessagesBody(mode),
  };
}

/** What a correct answer of each path looks like, checked once before measuring. */
export async function checkProtocolAnswer(baseUrl: string, apiKey: string, path: ProtocolPath, mode: Mode) {
  const target = buildProtocolTarget(baseUrl, apiKey, path, mode);
  const response = await fetch(target.url, { method: 'POST', headers: target.headers, body: target.body });
  const text = await response.text();
  const isAnthropic = path === 'messages';
  const isComplete =
    mode === 'json'
      ? text.includes('Hello! How can I help you today?')
      : text.includes(isAnthropic ? '"text_delta"' : '"content":"Hello"') &&
        text.trimEnd().endsWith(isAnthropic ? '{"type":"message_stop"}' : 'data: [DONE]');
  if (response.status !== 200 || !isComplete) {
    throw new Error(`gatehouse ${path} ${mode}: ${response.status} ${text.slice(0, 300)}`);
  }
}
