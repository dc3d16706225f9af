import type { ChatCompletion, ChatChunk, ChatRequest } from './chat';

/**
 * The chat protocols a client or an upstream can speak. A channel whose adapter speaks the client's protocol
 * takes the pass-through lane (the body forwarded with only the model and key changed); any other pair is
 * translated through the canonical types. 'bedrock-converse', 'baidu-wenxin', 'tencent-hunyuan' and 'dashscope'
 * are spoken by upstreams only.
 */
export type ChatProtocol =
  | 'openai-chat'
  | 'anthropic-messages'
  | 'gemini'
  | 'openai-responses'
  | 'bedrock-converse'
  | 'baidu-wenxin'
  | 'tencent-hunyuan'
  | 'dashscope';

/** Token counts as billed. promptTokens counts every input token, cached or not; the details are parts of it. */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  /** input tokens read from the vendor's prompt cache (part of promptTokens) */
  cacheReadTokens?: number;
  /** input tokens written to the vendor's prompt cache (part of promptTokens) */
  cacheWriteTokens?: number;
  /** thinking tokens (part of completionTokens) */
  reasoningTokens?: number;
  /** audio input tokens not read from the cache (part of promptTokens) */
  audioInputTokens?: number;
  /** image input tokens not read from the cache (part of promptTokens) */
  imageInputTokens?: number;
  /** generated audio tokens (part of completionTokens) */
  audioOutputTokens?: number;
  /** generated image tokens (part of completionTokens) */
  imageOutputTokens?: number;
}

/** Where the upstream is and how to sign in to it, as a translator needs it. */
export interface TranslatorChannel {
  /** the channel's base URL, or its type's default; never with a trailing slash */
  baseUrl: string;
  key: string;
  /** type-specific text: Azure's API version, Cloudflare's account id */
  other: string;
  /** the channel's config JSON as strings (region, project id …) */
  config: Readonly<Record<string, string>>;
  /** from the adapter's prepareCredential (Vertex, Baidu …), cached by the relay until shortly before it expires */
  accessToken?: string;
}

export interface UpstreamHttpRequest {
  url: string;
  /** 'POST' when absent */
  method?: 'POST' | 'GET';
  headers: Record<string, string>;
  body: string | Buffer;
}

export interface CanonicalChatInput {
  channel: TranslatorChannel;
  /** validated; its model is the client's, upstreamModel is what the channel must see */
  request: ChatRequest;
  upstreamModel: string;
  isStream: boolean;
  /** headers of the client worth forwarding to this vendor (anthropic-beta …), lower-case names */
  clientHeaders: Readonly<Record<string, string>>;
}

export interface ChatAnswer {
  completion: ChatCompletion;
  /** null when the upstream reported none: the relay counts tokens itself */
  usage: TokenUsage | null;
}

/** Decodes an upstream stream, bytes in, canonical chunks out, whatever its framing (SSE, AWS event stream …). */
export interface ChatStreamDecoder {
  push(bytes: Buffer): ChatChunk[];
  /** the upstream body ended: what was still buffered */
  end(): ChatChunk[];
  /** the usage the upstream reported so far, or null */
  usage(): TokenUsage | null;
}

/** A vendor's chat, translated from and to the canonical types. Pure: no I/O, no database, no billing. */
export interface ChatTranslator {
  /** may be asynchronous: signing the body (AWS SigV4) is */
  buildRequest(input: CanonicalChatInput): UpstreamHttpRequest | Promise<UpstreamHttpRequest>;
  /** a 2xx JSON answer; throws UpstreamFormatError when it is not what the vendor documents */
  readResponse(body: Buffer): ChatAnswer;
  createStreamDecoder(): ChatStreamDecoder;
}

/** The upstream answered 2xx with something its vendor does not document (cut JSON, wrong shape). */
export class UpstreamFormatError extends Error {}

/**
 * A client asked for something this vendor cannot do (n > 1 on Anthropic, audio input on a text-only vendor):
 * the relay answers 400 naming the vendor and the option, before anything is sent or charged.
 */
export class UnsupportedOptionError extends Error {
  constructor(
    readonly vendor: string,
    readonly option: string,
    detail?: string,
  ) {
    super(`${vendor} does not support ${option}${detail ? `: ${detail}` : ''}`);
  }
}

/** The kinds of upstream failure the relay acts on, whatever words the vendor used. */
export type UpstreamErrorKind =
  | 'authentication'
  | 'permission'
  | 'insufficient_quota'
  | 'rate_limit'
  | 'overloaded'
  | 'invalid_request'
  | 'not_found'
  | 'context_length'
  | 'server'
  | 'unknown';

/** An upstream failure as the vendor described it. */
export interface UpstreamErrorDetails {
  message: string;
  /** the vendor's own type / status word */
  type: string;
  code: string;
  /** what the relay does about it: 'authentication' and 'permission' mark the channel's credentials refused */
  kind: UpstreamErrorKind;
}

/**
 * The upstream reported a failure where an answer was expected: an error object in a 2xx body (Baidu's
 * error_code, Tencent Cloud's Response.Error, which come with HTTP 200) or an error event in a stream that
 * had started. The relay treats it like an upstream error answer of its kind (a 'rate_limit' like a 429, an
 * 'authentication' like a 401 that also drops a cached access token, an 'invalid_request' like a 400 with the
 * vendor's words). Every adapter's reported errors are this class or a subclass of it.
 */
export class UpstreamReportedError extends UpstreamFormatError {
  constructor(
    readonly vendor: string,
    readonly details: UpstreamErrorDetails,
    /** the log's wording, when the vendor's own words read better than the default */
    message = `${vendor} reported ${details.type || details.code || 'an error'}: ${details.message}`,
  ) {
    super(message);
  }
}

/**
 * The kind an HTTP status implies, for vendors whose error body says nothing more precise (and as the fallback
 * of every readError). 529 is Anthropic's "overloaded".
 */
export function kindFromStatus(status: number): UpstreamErrorKind {
  if (status === 401) return 'authentication';
  if (status === 403) return 'permission';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limit';
  if (status === 503 || status === 529) return 'overloaded';
  if (status >= 500) return 'server';
  if (status >= 400) return 'invalid_request';
  return 'unknown';
}

/** A short-lived credential an adapter derives from the channel's key (an OAuth access token …). */
export interface PreparedCredential {
  accessToken: string;
  /** epoch milliseconds; the relay refreshes a little before */
  expiresAt: number;
}

/** An answer to a credential request, as the relay's HTTP client read it. */
export interface CredentialResponse {
  status: number;
  body: Buffer;
}

/**
 * How an adapter reaches a token endpoint: the relay's own HTTP client (its pools and RELAY_TIMEOUT), so the
 * adapter stays free of I/O of its own and tests can answer in its place.
 */
export type CredentialFetch = (request: UpstreamHttpRequest) => Promise<CredentialResponse>;

/**
 * The vendor refused the channel's long-lived credential while preparing the short-lived one (a revoked
 * service account, a wrong secret): the channel is marked auth-failed, like an upstream 401.
 */
export class CredentialRefusedError extends Error {}
