import type { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type {
  ChatProtocol,
  ChatTranslator,
  CredentialFetch,
  PreparedCredential,
  TokenUsage,
  TranslatorChannel,
  UpstreamErrorDetails,
  UpstreamHttpRequest,
} from '../canonical/translation';

export type { TokenUsage, UpstreamErrorDetails } from '../canonical/translation';

/**
 * The contract between the relay and the providers. An adapter builds upstream requests and reads upstream
 * answers; it never touches the HTTP reply, the database or billing (the relay does the I/O).
 */

/** What a channel gives an adapter: where the upstream is and how to sign in to it. */
export type ChannelCredentials = TranslatorChannel;

export type UpstreamRequest = UpstreamHttpRequest;

/** A value, or a promise of it (a request whose signing is asynchronous, as SigV4's is). */
export type MaybeAsync<T> = T | Promise<T>;

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

/** A chat call whose client speaks the adapter's own protocol: the body is forwarded, not translated. */
export interface PassThroughRequestInput extends JsonRequestInput {
  isStream: boolean;
  /** the client's headers that belong to the protocol (anthropic-version, anthropic-beta …), lower-case */
  clientHeaders: Readonly<Record<string, string>>;
}

/** A multipart call (audio transcription and translation). */
export interface MultipartRequestInput {
  channel: ChannelCredentials;
  /** the client's multipart body, with the model field already rewritten when mapped */
  rawBody: Buffer;
  contentType: string;
  upstreamModel: string;
}

/** The upstream answer as the client gets it (the upstream's own bytes), with the usage it reports. */
export interface ReadResponse {
  body: Buffer;
  /** null when the upstream reported none: the relay counts tokens itself */
  usage: TokenUsage | null;
  /** the generated text, for local counting when usage is null */
  readonly completionText: string;
  /** the answer parsed (null when it is not JSON), for what the relay bills per item, e.g. images */
  readonly answer: unknown;
}

/**
 * One server-sent event as it came: `raw` is its text without the blank line that ends it (the `event:` and
 * `data:` lines, in the upstream's order), so a pass-through forwards it untouched.
 */
export interface SseEvent {
  /** the `event:` name, or null (OpenAI names none; Anthropic names every event) */
  event: string | null;
  /** the `data:` lines joined by newlines */
  data: string;
  raw: string;
}

/** Reads a same-protocol stream event by event and says what the client gets of it. */
export interface StreamReader {
  /**
   * The events to forward for one upstream event: usually the event itself, sometimes none. Read before the
   * next call: a reader may answer the same array each time.
   */
  readEvent(event: SseEvent): readonly SseEvent[];
  /** after the last event (or an interruption): usage when reported, else the text produced so far */
  finish(): { usage: TokenUsage | null; completionText: string };
}

export interface StreamReaderOptions {
  /** the client asked for the usage chunk (stream_options.include_usage); otherwise it is removed */
  clientWantsUsage: boolean;
}

export interface JsonCapability<
  Input = JsonRequestInput,
  Built extends MaybeAsync<UpstreamRequest> = UpstreamRequest,
> {
  buildRequest(input: Input): Built;
  /**
   * Throws UpstreamFormatError when a 2xx answer is cut or not what the vendor documents. `input` is the request
   * it answers, for a translated answer whose shape depends on it (an embeddings answer's encoding_format).
   */
  readResponse(body: Buffer, input?: Input): ReadResponse;
}

/**
 * Chat for clients that speak the adapter's own protocol: bytes in, bytes out, usage read on the side. This is
 * the fast and faithful lane (nothing the relay does not understand is lost on the way).
 */
export interface PassThroughCapability extends JsonCapability<PassThroughRequestInput> {
  createStreamReader(options: StreamReaderOptions): StreamReader;
  /**
   * The events of a whole JSON answer to a stream request (some OpenAI-compatible servers ignore `stream`).
   * Without it such an answer counts as malformed.
   */
  answerAsEvents?(answer: ReadResponse, options: StreamReaderOptions): SseEvent[];
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

/** An upstream answer as a transport hands it to the relay: status, headers and the body as a byte stream. */
export interface UpstreamAnswer {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: Readable;
}

/**
 * How an upstream is reached when it is not one HTTP request per call: iFlytek Spark answers over a WebSocket
 * whose URL is HMAC-signed. Such a transport sends the built request its own way and hands back the frames
 * as one byte stream for the adapter's stream decoder. No adapter needs one yet; without it the relay sends
 * the request over its HTTP pools.
 */
export interface UpstreamTransport {
  send(request: UpstreamRequest, signal: AbortSignal | EventEmitter): Promise<UpstreamAnswer>;
}

/**
 * One wire format. Chat is always served: on the pass-through lane when the client speaks `protocol` and the
 * adapter has `passThrough`, else through the translator. The other endpoints are optional capabilities, and
 * the relay answers a clear error when a channel's adapter lacks the one a request needs.
 */
export interface ProviderAdapter {
  /** the wire format's name, for messages and docs */
  readonly wireFormat: string;
  /** the chat protocol the vendor speaks natively */
  readonly protocol: ChatProtocol;
  /**
   * Chat for clients of `protocol`, forwarded rather than translated. Without it those clients are
   * translated too (a canonical round trip), which works but may lose what the canonical types do not carry.
   */
  readonly passThrough?: PassThroughCapability;
  /** canonical chat to and from the vendor's protocol, for clients of every other protocol */
  readonly translator: ChatTranslator;
  /**
   * Token counting for clients of `protocol` (Anthropic's /v1/messages/count_tokens, Gemini's :countTokens),
   * forwarded like passThrough; the vendor's answer goes back as it came. Without it the relay counts locally.
   */
  readonly countTokens?: JsonCapability<PassThroughRequestInput>;
  readonly completions?: PassThroughCapability;
  /** may build asynchronously (Bedrock signs its InvokeModel call) */
  readonly embeddings?: JsonCapability<JsonRequestInput, MaybeAsync<UpstreamRequest>>;
  readonly moderations?: JsonCapability;
  readonly images?: JsonCapability;
  readonly audioSpeech?: BinaryCapability;
  readonly audioTranscriptions?: MultipartCapability;
  readonly audioTranslations?: MultipartCapability;
  /**
   * Turns the channel's long-lived key into a short-lived one (Vertex: service account → OAuth access token;
   * Baidu: key and secret → access token). The relay caches it per channel credential and refreshes it shortly
   * before it expires, one refresh at a time; it reaches buildRequest as `channel.accessToken`. Throws
   * CredentialRefusedError when the vendor refuses the key.
   */
  prepareCredential?(channel: ChannelCredentials, fetch: CredentialFetch): Promise<PreparedCredential>;
  /**
   * An error answer (any non-2xx) as the vendor described it, with the kind of failure it is. `headers` are the
   * answer's, for vendors that name the error there (Bedrock's x-amzn-errortype).
   */
  readError(body: Buffer, status: number, headers?: IncomingHttpHeaders): UpstreamErrorDetails;
  readonly transport?: UpstreamTransport;
}

/** The endpoints an adapter may lack (chat it always serves). */
export type OptionalCapability =
  | 'completions'
  | 'embeddings'
  | 'moderations'
  | 'images'
  | 'audioSpeech'
  | 'audioTranscriptions'
  | 'audioTranslations';

/** What a relay request asks of the channel. */
export type RelayEndpoint = 'chat' | OptionalCapability;
