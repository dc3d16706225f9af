import type { IncomingHttpHeaders } from 'node:http';

/** A request the upstream received, as it arrived on the wire. */
export interface ReceivedRequest {
  method: string;
  /** path and query, e.g. /openai/deployments/gpt-4o/chat/completions?api-version=… */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** the body parsed when it is JSON */
  json: Record<string, unknown> | null;
}

export interface UpstreamUsage {
  prompt: number;
  completion: number;
  /** prompt tokens read from the prompt cache (prompt_tokens_details.cached_tokens) */
  cached?: number;
  /** audio prompt tokens: chat's prompt_tokens_details.audio_tokens, a transcription's input_token_details */
  audioInput?: number;
  /** image prompt tokens: gpt-image-1's input_tokens_details.image_tokens */
  imageInput?: number;
  /** generated audio tokens: chat's completion_tokens_details.audio_tokens */
  audioOutput?: number;
}

/** How the upstream answers. Every field is optional: the default is a well-behaved OpenAI. */
export interface UpstreamBehaviour {
  /** answer with this error status and OpenAI error body instead */
  error?: {
    status: number;
    message: string;
    type?: string;
    code?: string | null;
    /** sent with the error, e.g. Retry-After */
    headers?: Record<string, string>;
  };
  /** close the socket without answering */
  disconnect?: boolean;
  /** stream this many content chunks, then break the connection */
  breakStreamAfterChunks?: number;
  /** wait before the headers */
  delayMs?: number;
  /** wait between stream chunks */
  chunkDelayMs?: number;
  /** streams: send the headers at once, then nothing for this long before the first event */
  firstEventDelayMs?: number;
  /** the assistant's words, one stream chunk each */
  words?: string[];
  /** counts reported in `usage` */
  usage?: UpstreamUsage;
  /** leave `usage` out of JSON answers (a proxy that strips it) */
  omitUsage?: boolean;
  /** answer JSON even when the request asks for a stream (some OpenAI-compatible servers do) */
  ignoreStream?: boolean;
  /** streams: 'asked' = usage chunk only with stream_options.include_usage (OpenAI); 'never'; 'always' */
  streamUsage?: 'asked' | 'never' | 'always';
  /** answer exactly this instead (a cut or malformed answer): status 200 and JSON unless said otherwise */
  raw?: { status?: number; contentType?: string; body: string };
  /**
   * the tool the model calls when tools are offered, until a tool result is in the conversation; then it
   * answers the words (an agent's loop). Without it: the first tool offered, with `{"city":"Paris"}`, always.
   */
  toolCall?: { name: string; arguments: string };
}

export interface OpenAIUpstream {
  name: string;
  url: string;
  received: ReceivedRequest[];
  behaviour: UpstreamBehaviour;
  /** streamed answers whose connection the client closed before the stream ended */
  streamsCutByClient: number;
  close(): Promise<void>;
}
