import type { IncomingHttpHeaders } from 'node:http';
import type { IngressCodec, TokenCountCodec } from '../ingress-codec';
import { createAnthropicStreamEncoder } from './anthropic-stream-encoder';
import { decodeAnthropicCountRequest, decodeAnthropicRequest } from './decode-anthropic-request';
import { encodeAnthropicError, encodeAnthropicStreamError } from './encode-anthropic-error';
import { encodeAnthropicMessage } from './encode-anthropic-message';

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * The API version and the betas the client's body is written for: an Anthropic channel gets them with the
 * body (https://docs.anthropic.com/en/api/versioning, https://docs.anthropic.com/en/api/beta-headers).
 */
function readAnthropicHeaders(headers: IncomingHttpHeaders): Readonly<Record<string, string>> {
  const version = headers['anthropic-version'];
  const beta = headers['anthropic-beta'];
  if (version === undefined && beta === undefined) return NO_HEADERS;
  const read: Record<string, string> = {};
  if (typeof version === 'string' && version !== '') read['anthropic-version'] = version;
  // Several anthropic-beta headers are one comma-separated list, as Anthropic reads them.
  const betas = Array.isArray(beta) ? beta.join(',') : beta;
  if (betas) read['anthropic-beta'] = betas;
  return read;
}

/**
 * Anthropic's Messages API (POST /v1/messages), the protocol of `@anthropic-ai/sdk`, Claude Code and the
 * Vercel AI SDK's Anthropic provider. An Anthropic channel gets the client's own body (pass-through); every
 * other channel gets it translated. Errors are `{"type":"error","error":{type, message}}` with Anthropic's
 * statuses.
 */
export const anthropicMessagesCodec: IngressCodec & { tokenCount: TokenCountCodec } = {
  protocol: 'anthropic-messages',
  decodeRequest: decodeAnthropicRequest,
  readClientHeaders: readAnthropicHeaders,
  encodeAnswer: encodeAnthropicMessage,
  createStreamEncoder: createAnthropicStreamEncoder,
  // message_stop, the last event of every Anthropic stream, says it.
  streamEnd: '',
  isLastStreamEvent: (event) => event.event === 'message_stop',
  encodeError: encodeAnthropicError,
  encodeStreamError: encodeAnthropicStreamError,
  tokenCount: {
    decodeRequest: decodeAnthropicCountRequest,
    encodeCount: (inputTokens) => JSON.stringify({ input_tokens: inputTokens }),
  },
};
