/** Priced by Gatehouse's built-in ratios, so billing runs as for a real request. */
export const BENCH_MODEL = 'gpt-4o-mini';

export type Mode = 'json' | 'stream';

/** Where a load goes: the URL of the chat endpoint and the headers a client sends there. */
export interface RequestTarget {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** A small chat request, as most clients send: a system prompt, one user turn and max_tokens. */
export function buildChatBody(mode: Mode): string {
  return JSON.stringify({
    model: BENCH_MODEL,
    messages: [
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: 'Say hello to the benchmark in one short sentence.' },
    ],
    max_tokens: 64,
    temperature: 0.7,
    // Most streaming clients do not ask for stream usage: the gateway asks the upstream and strips it.
    ...(mode === 'stream' ? { stream: true } : {}),
  });
}

export function buildRequestTarget(
  baseUrl: string,
  apiKey: string,
  mode: Mode,
  extraHeaders: Record<string, string> = {},
): RequestTarget {
  return {
    url: `${baseUrl}/v1/chat/completions`,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}`, ...extraHeaders },
    body: buildChatBody(mode),
  };
}
