import type { IncomingHttpHeaders } from 'node:http';
import type { ChatChunk, ChatCompletion, ChatRequest } from '../canonical/chat';
import type { ChatProtocol, TokenUsage } from '../canonical/translation';
import type { SseEvent } from '../providers/provider-types';
import type { RelayError } from '../relay/relay-error';

/** An error as the client's protocol writes it. */
export interface EncodedError {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Writes canonical stream chunks as the client's protocol streams them. */
export interface ClientStreamEncoder {
  /** the text for the client for one chunk ('' when the chunk carries nothing this protocol shows) */
  encode(chunk: ChatChunk): string;
  /** after the last chunk: what the protocol still owes the client (its usage event, its end marker) */
  finish(usage: TokenUsage | null): string;
}

/**
 * Counting a request's input tokens without an answer (Anthropic's /v1/messages/count_tokens), for protocols
 * that have it. Never billed.
 */
export interface TokenCountCodec {
  /** like decodeRequest, for the counting endpoint's body (which lacks what only an answer needs) */
  decodeRequest(body: Record<string, unknown>): ChatRequest;
  /** the answer for a count made here */
  encodeCount(inputTokens: number): string;
}

/** Writes forwarded stream events in the client's framing, when it is not the upstream's server-sent events. */
export interface EventFramer {
  /** the text for the client for one event's data */
  frame(data: string): string;
  /** after the last event: what closes the stream */
  end(): string;
}

/**
 * One protocol a client can speak to the gateway (OpenAI chat completions, Anthropic Messages, OpenAI
 * Responses, Gemini). A codec decodes the client's body into the canonical request and encodes answers,
 * stream chunks and errors back; the relay story between them is the same for every protocol. Pure: no
 * database, no reply object, no billing.
 */
export interface IngressCodec {
  readonly protocol: ChatProtocol;
  /**
   * Validates the client's parsed body and reads it as a canonical request, before any channel is picked.
   * Throws a 400 RelayError naming the field. Unknown fields are never an error: they stay on the request
   * (a same-protocol upstream gets them with the body) and translators drop them.
   */
  decodeRequest(body: Record<string, unknown>): ChatRequest;
  /** the client's headers that belong to the protocol, for a same-protocol upstream (lower-case names) */
  readClientHeaders(headers: IncomingHttpHeaders): Readonly<Record<string, string>>;
  encodeAnswer(completion: ChatCompletion): string;
  createStreamEncoder(request: ChatRequest): ClientStreamEncoder;
  /** the text that ends a forwarded stream of this protocol ('' when its last event says it) */
  readonly streamEnd: string;
  /**
   * True for the event that ends a forwarded stream (Anthropic's message_stop, the Responses API's
   * response.completed …): it and what follows are held until the request's charge is committed.
   */
  isLastStreamEvent?(event: SseEvent): boolean;
  /** the content type of this protocol's streams; text/event-stream when absent */
  readonly streamContentType?: string;
  /**
   * For a client that takes a stream in another framing than server-sent events (Gemini's JSON array, when a
   * stream is asked for without alt=sse): writes the events of a forwarded stream, which then ends with the
   * framer's end rather than streamEnd. Absent: events are forwarded as they came.
   */
  createEventFramer?(): EventFramer;
  encodeError(error: RelayError, requestId: string): EncodedError;
  /** present when the protocol has a token counting endpoint */
  readonly tokenCount?: TokenCountCodec;
  /** an error event for a stream already under way */
  encodeStreamError(error: RelayError, requestId: string): string;
}
