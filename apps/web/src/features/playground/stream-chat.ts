import type { SnippetMessage } from '../../components/relay-snippets';

/** The usage OpenAI's last stream chunk carries when the request sets stream_options.include_usage. */
export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface ChatCompletionBody {
  model: string;
  messages: SnippetMessage[];
  temperature?: number;
  max_tokens?: number;
}

export interface StreamChatOptions {
  /** the key, with its sk- prefix */
  apiKey: string;
  body: ChatCompletionBody;
  signal: AbortSignal;
  /** the relay's X-Request-Id, as soon as the answer's headers arrive */
  onStart: (requestId: string | null) => void;
  onText: (text: string) => void;
}

export interface StreamChatResult {
  usage: ChatUsage | null;
  /** the reader stopped it (the relay still bills what the upstream had produced) */
  isStopped: boolean;
}

/** A refusal or failure of the relay, in OpenAI's error shape: `{"error": {message, type, code}}`. */
export class RelayCallError extends Error {
  constructor(
    message: string,
    /** HTTP status; null when the error arrived inside the stream or no answer came */
    readonly status: number | null,
    readonly code: string | null,
  ) {
    super(message);
    this.name = 'RelayCallError';
  }
}

interface OpenAIErrorBody {
  error?: { message?: string; code?: string | number | null; type?: string };
}

interface ChatChunk extends OpenAIErrorBody {
  choices?: Array<{ delta?: { content?: string | null } }>;
  usage?: ChatUsage | null;
}

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

function toRelayError(body: OpenAIErrorBody, status: number | null, fallback: string): RelayCallError {
  const code = body.error?.code ?? body.error?.type ?? null;
  return new RelayCallError(body.error?.message || fallback, status, code === null ? null : String(code));
}

async function readFailure(response: Response): Promise<RelayCallError> {
  const text = await response.text();
  try {
    return toRelayError(JSON.parse(text) as OpenAIErrorBody, response.status, text);
  } catch {
    return new RelayCallError(
      text || response.statusText || `HTTP ${response.status}`,
      response.status,
      null,
    );
  }
}

/** One server-sent event's data: a chunk, or a stream-level error some upstreams send instead of a status. */
function readEvent(data: string, onText: (text: string) => void): ChatUsage | null {
  const chunk = JSON.parse(data) as ChatChunk;
  if (chunk.error) throw toRelayError(chunk, null, data);
  const text = chunk.choices?.[0]?.delta?.content;
  if (text) onText(text);
  return chunk.usage ?? null;
}

/**
 * Calls the gateway's /v1/chat/completions as any client would: the key as a bearer token, streamed, the
 * usage asked for in the last chunk. Text is handed over as it arrives.
 */
export async function streamChat(options: StreamChatOptions): Promise<StreamChatResult> {
  let response: Response;
  try {
    response = await fetch('/v1/chat/completions', {
      method: 'POST',
      // The key alone says who calls, as for any program: no console session cookie.
      credentials: 'omit',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${options.apiKey}` },
      body: JSON.stringify({ ...options.body, stream: true, stream_options: { include_usage: true } }),
      signal: options.signal,
    });
  } catch (error) {
    if (isAbort(error)) return { usage: null, isStopped: true };
    throw new RelayCallError(error instanceof Error ? error.message : String(error), null, null);
  }
  options.onStart(response.headers.get('X-Request-Id'));
  if (!response.ok) throw await readFailure(response);
  if (!response.body) throw new RelayCallError('The answer has no body', response.status, null);

  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let usage: ChatUsage | null = null;
  let pending = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      pending += value;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('data:')) continue;
        const data = line.slice('data:'.length).trim();
        if (data === '[DONE]') return { usage, isStopped: false };
        if (data) usage = readEvent(data, options.onText) ?? usage;
      }
    }
  } catch (error) {
    if (isAbort(error) || options.signal.aborted) return { usage, isStopped: true };
    throw error;
  }
  return { usage, isStopped: false };
}
