import type { ChatTranslator, UpstreamErrorDetails } from '../../canonical/translation';
import type { ProviderAdapter } from '../provider-types';
import {
  buildAnthropicPassThroughRequest,
  createAnthropicPassThroughStreamReader,
  readAnthropicPassThroughResponse,
} from './anthropic-pass-through';
import { createAnthropicStreamDecoder } from './anthropic-stream-decoder';
import { readAnthropicResponse } from './convert-anthropic-response';
import { buildAnthropicHttpRequest } from './convert-to-anthropic-request';
import { readAnthropicError } from './read-anthropic-error';
import { readAnthropicTokenCount } from './read-anthropic-token-count';

/** Canonical chat to and from Anthropic's Messages API (https://docs.anthropic.com/en/api/messages). */
export const anthropicTranslator: ChatTranslator = {
  buildRequest: buildAnthropicHttpRequest,
  readResponse: readAnthropicResponse,
  createStreamDecoder: createAnthropicStreamDecoder,
};

/** An Anthropic error answer, with the kind of failure it is. */
export function readError(body: Buffer, status: number): UpstreamErrorDetails {
  return readAnthropicError(body, status);
}

/**
 * Anthropic's native Messages API: Anthropic clients pass through (their bytes, usage read on the side), every
 * other client is translated. Chat only: Anthropic offers no embeddings, images or audio.
 */
export const anthropicAdapter: ProviderAdapter = {
  wireFormat: 'anthropic',
  protocol: 'anthropic-messages',
  passThrough: {
    buildRequest: (input) => buildAnthropicPassThroughRequest(input),
    readResponse: readAnthropicPassThroughResponse,
    createStreamReader: () => createAnthropicPassThroughStreamReader(),
  },
  translator: anthropicTranslator,
  countTokens: {
    buildRequest: (input) => buildAnthropicPassThroughRequest(input, '/v1/messages/count_tokens'),
    readResponse: readAnthropicTokenCount,
  },
  readError,
};
