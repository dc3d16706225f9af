import type { ChatRequest } from '../../canonical/chat';
import { convertToChatUsage } from '../../canonical/convert-token-usage';
import { toOpenAIErrorBody } from '../../relay/relay-error';
import type { IngressCodec } from '../ingress-codec';
import { convertToResponsesResponse } from './convert-to-responses-response';
import type { ResponsesRequest } from './convert-responses-request';
import { createResponsesContext } from './responses-object';
import { formatResponsesEvents, ResponsesStreamEncoder } from './responses-stream-encoder';
import type { ResponsesObject } from './responses-types';

const LAST_EVENTS: ReadonlySet<string> = new Set([
  'response.completed',
  'response.incomplete',
  'response.failed',
]);

/** The events that end a Responses stream. */
function isResponsesEnd(name: string | null): boolean {
  return name !== null && LAST_EVENTS.has(name);
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** The codec of one Responses request, and the response it wrote, once written (for storage). */
export interface OpenAIResponsesCodec extends IngressCodec {
  finalResponse(): ResponsesObject | null;
}

/**
 * OpenAI's Responses API (POST /v1/responses) as the codec of one request. A response repeats its request
 * (id, instructions, tools …) and `encodeAnswer` is given only the completion, so the codec is made per
 * request, around the request already decoded: its conversation may come from a stored response, which the
 * relay reads from the database before (a codec has none). Errors are OpenAI's error object; an error in a
 * stream under way is `response.failed` with the output so far, as the API sends it
 * (https://platform.openai.com/docs/api-reference/responses-streaming/response/failed).
 */
export function createOpenAIResponsesCodec(
  request: ResponsesRequest,
  chat: ChatRequest,
): OpenAIResponsesCodec {
  const context = createResponsesContext(request.echo, request.toolOrigins);
  let final: ResponsesObject | null = null;
  let streamEncoder: ResponsesStreamEncoder | null = null;
  return {
    protocol: 'openai-responses',
    decodeRequest: () => chat,
    readClientHeaders: () => NO_HEADERS,
    encodeAnswer(completion) {
      final = convertToResponsesResponse(completion, context);
      return JSON.stringify(final);
    },
    createStreamEncoder() {
      const encoder = new ResponsesStreamEncoder(context);
      streamEncoder = encoder;
      return {
        encode: (chunk) => formatResponsesEvents(encoder.push(chunk)),
        finish(usage) {
          const text = formatResponsesEvents(encoder.finish(usage ? convertToChatUsage(usage) : undefined));
          final = encoder.response();
          return text;
        },
      };
    },
    // The last event (response.completed, .incomplete or .failed) ends the stream: no [DONE].
    streamEnd: '',
    isLastStreamEvent: (event) => isResponsesEnd(event.event),
    encodeError: (error, requestId) => ({
      status: error.statusCode,
      headers: error.headers,
      body: toOpenAIErrorBody(error, requestId),
    }),
    encodeStreamError(error, requestId) {
      const message = `${error.message} (request id: ${requestId})`;
      if (streamEncoder) {
        const text = formatResponsesEvents(streamEncoder.fail(message));
        final = streamEncoder.response();
        return text;
      }
      const event = { type: 'error', code: error.code, message, param: error.param, sequence_number: 0 };
      return `event: error\ndata: ${JSON.stringify(event)}\n\n`;
    },
    finalResponse: () => final,
  };
}
