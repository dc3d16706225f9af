import { convertToChatUsage } from '../../canonical/convert-token-usage';
import { toOpenAIErrorBody } from '../../relay/relay-error';
import type { IngressCodec } from '../ingress-codec';
import { decodeOpenAIChatRequest } from './decode-openai-chat-request';
import { createOpenAIChatStreamEncoder, encodeOpenAIChatCompletion } from './encode-openai-chat-answer';

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * OpenAI's chat completions (POST /v1/chat/completions), the protocol of the `openai` SDKs and of most tools.
 * Errors are `{"error": {message, type, param, code}}` with the real status
 * (https://platform.openai.com/docs/guides/error-codes).
 */
export const openAIChatCodec: IngressCodec = {
  protocol: 'openai-chat',
  decodeRequest: decodeOpenAIChatRequest,
  // OpenAI's own headers (OpenAI-Organization, OpenAI-Project) name the client's account, not the channel's.
  readClientHeaders: () => NO_HEADERS,
  encodeAnswer: encodeOpenAIChatCompletion,
  createStreamEncoder(request) {
    const encoder = createOpenAIChatStreamEncoder(request.stream_options?.include_usage === true);
    return {
      encode: encoder.encode,
      finish: (usage) => encoder.finish(usage ? convertToChatUsage(usage) : null),
    };
  },
  streamEnd: 'data: [DONE]\n\n',
  encodeError: (error, requestId) => ({
    status: error.statusCode,
    headers: error.headers,
    body: toOpenAIErrorBody(error, requestId),
  }),
  encodeStreamError: (error, requestId) => `data: ${JSON.stringify(toOpenAIErrorBody(error, requestId))}\n\n`,
};
