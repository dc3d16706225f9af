/**
 * The contract between the relay and the providers. An adapter builds upstream requests and reads upstream
 * answers; it never touches the HTTP reply, the database or billing (the relay does the I/O).
 */

/** What a channel gives an adapter: where the upstream is and how to sign in to it. */
export interface ChannelCredentials {
  /** the channel's base URL, or its type's default; never with a trailing slash */
  baseUrl: string;
  key: string;
  /** type-specific text: Azure's API version, Cloudflare's account id */
  other: string;
}

export interface UpstreamRequest {
  url: string;
  headers: Record<string, string>;
  body: string | Buffer;
}

/** Token counts as billed: prompt (input) and completion (output). */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

/** A JSON call as the client sent it, with the model the channel should see. */
export interface JsonRequestInput {
  channel: ChannelCredentials;
  /** the client's body, parsed */
  body: Record<string, unknown>;
  /** the client's bytes: forwarded untouched when nothing has to change (the fast path) */
  rawBody: Buffer;
  /** the model name after the channel's model mapping */
  upstreamModel: string;
  isModelMapped: boolean;
}

export interface ChatRequestInput extends JsonRequestInput {
  isStream: boolean;
}

/** A multipart call (audio transcription and translation). */
export interface MultipartRequestInput {
  channel: ChannelCredentials;
  /** the client's multipart body, with the model field already rewritten when mapped */
  rawBody: Buffer;
  contentType: string;
  upstreamModel: string;
}

/** The upstream answer turned into the OpenAI wire format, with the usage it reports. */
export interface ReadResponse {
  body: Buffer;
  /** null when the upstream reported none: the relay counts tokens itself */
  usage: TokenUsage | null;
  /** the generated text, for local counting when usage is null */
  readonly completionText: string;
  /** the answer parsed (null when it is not JSON), for what the relay bills per item, e.g. images */
  readonly answer: unknown;
}

/** One upstream server-sent event translated for the client. */
export interface StreamEventResult {
  /** `data:` payloads (JSON text) for the client, in order */
  chunks: string[];
  /** the upstream said it is finished ([DONE] or its own end event) */
  isDone: boolean;
}

export interface StreamReader {
  /** reads the `data:` payload of one upstream event */
  readEvent(data: string): StreamEventResult;
  /** after the last event (or an interruption): usage when reported, else the text produced so far */
  finish(): { usage: TokenUsage | null; completionText: string };
}

export interface StreamReaderOptions {
  /** the client asked for the usage chunk (stream_options.include_usage); otherwise it is removed */
  clientWantsUsage: boolean;
}

export interface JsonCapability<Input = JsonRequestInput> {
  buildRequest(input: Input): UpstreamRequest;
  readResponse(body: Buffer): ReadResponse;
}

export interface ChatCapability extends JsonCapability<ChatRequestInput> {
  createStreamReader(options: StreamReaderOptions): StreamReader;
}

/** A call whose answer is binary (speech audio) and is streamed to the client as it comes. */
export interface BinaryCapability {
  buildRequest(input: JsonRequestInput): UpstreamRequest;
}

export interface MultipartCapability {
  buildRequest(input: MultipartRequestInput): UpstreamRequest;
  /** transcripts come as JSON or as text (text, srt, vtt) depending on response_format */
  readResponse(body: Buffer, contentType: string): ReadResponse;
}

/** An upstream failure as the provider described it. */
export interface UpstreamErrorDetails {
  message: string;
  type: string;
  code: string;
}

/**
 * One wire format. Chat is required; the rest are optional capabilities, and the relay answers a clear error
 * when a channel's adapter lacks the one a request needs.
 */
export interface ProviderAdapter {
  /** the wire format's name, for messages and docs */
  readonly wireFormat: string;
  readonly chat: ChatCapability;
  readonly completions?: ChatCapability;
  readonly embeddings?: JsonCapability;
  readonly moderations?: JsonCapability;
  readonly images?: JsonCapability;
  readonly audioSpeech?: BinaryCapability;
  readonly audioTranscriptions?: MultipartCapability;
  readonly audioTranslations?: MultipartCapability;
  readError(body: Buffer): UpstreamErrorDetails;
}

export type AdapterCapability = Exclude<keyof ProviderAdapter, 'wireFormat' | 'readError'>;
