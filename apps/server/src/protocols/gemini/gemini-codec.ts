import type { ChatCompletion } from '../../canonical/chat';
import type { IngressCodec, TokenCountCodec } from '../ingress-codec';
import { decodeGeminiRequest, type GeminiCallTarget } from './decode-gemini-request';
import { decodeGeminiCountTokensRequest } from './decode-gemini-count-tokens';
import { geminiStatusOf, toGeminiErrorBody } from './encode-gemini-error';
import { convertToGeminiResponse } from './encode-gemini-response';
import { createGeminiStreamEncoder } from './gemini-stream-encoder';
import { createJsonArrayFraming, createSseFraming, JSON_ARRAY_CONTENT_TYPE } from './gemini-stream-framing';

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

export interface GeminiCodecTarget extends GeminiCallTarget {
  /** the stream was asked for as server-sent events (`?alt=sse`) rather than a JSON array */
  isSse: boolean;
}

/**
 * The Gemini API's generateContent and streamGenerateContent (https://ai.google.dev/api/generate-content), the
 * protocol of @google/genai, the Gemini CLI and the AI SDK's Google provider. A Gemini call names its model
 * and whether it streams in the URL, not the body, so there is one codec per call. Errors are Google's
 * `{"error": {code, message, status}}` with the real HTTP status.
 */
export function createGeminiCodec(target: GeminiCodecTarget): IngressCodec & { tokenCount: TokenCountCodec } {
  const isArray = target.isStream && !target.isSse;
  return {
    protocol: 'gemini',
    decodeRequest: (body) => decodeGeminiRequest(body, target),
    // x-goog-api-client and x-goog-user-project describe the client's own Google account, not the channel's.
    readClientHeaders: () => NO_HEADERS,
    encodeAnswer: (completion: ChatCompletion) =>
      JSON.stringify(convertToGeminiResponse(completion, target.model)),
    createStreamEncoder: () =>
      createGeminiStreamEncoder(target.model, isArray ? createJsonArrayFraming() : createSseFraming()),
    streamEnd: isArray ? ']' : '',
    // Gemini names no last event: the chunk that carries the finish reason is the end of the answer.
    isLastStreamEvent: (event) => event.data.includes('"finishReason"'),
    ...(isArray
      ? {
          streamContentType: JSON_ARRAY_CONTENT_TYPE,
          createEventFramer: () => {
            const framing = createJsonArrayFraming();
            return { frame: (data: string) => framing.frame(data), end: framing.end };
          },
        }
      : {}),
    tokenCount: {
      decodeRequest: (body) => decodeGeminiCountTokensRequest(body, target.model),
      encodeCount: (totalTokens) => JSON.stringify({ totalTokens }),
    },
    encodeError: (error, requestId) => ({
      status: geminiStatusOf(error),
      headers: error.headers,
      body: toGeminiErrorBody(error, requestId),
    }),
    // Only ever written after the stream's first response, so the JSON array is already open.
    encodeStreamError: (error, requestId) => {
      const json = JSON.stringify(toGeminiErrorBody(error, requestId));
      return isArray ? `,\r\n${json}]` : `data: ${json}\n\n`;
    },
  };
}

/** The codec of the /v1beta scope's own errors (a bad key, an unknown path), before any call is read. */
export const geminiScopeCodec = createGeminiCodec({ model: '', isStream: false, isSse: false });
