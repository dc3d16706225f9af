import type { ChatTranslator, UpstreamErrorDetails } from '../../canonical/translation';
import type { ProviderAdapter } from '../provider-types';
import { cohereEmbeddings } from './cohere-embeddings-capability';
import { createCohereStreamDecoder } from './cohere-stream-decoder';
import { readCohereResponse } from './convert-cohere-response';
import { buildCohereChatRequest } from './convert-to-cohere-request';
import { readCohereError } from './read-cohere-error';

export { cohereEmbeddings } from './cohere-embeddings-capability';
export { CohereReportedError } from './cohere-reported-error';

/** Canonical chat to and from Cohere's v2 Chat API (https://docs.cohere.com/reference/chat). */
export const cohereTranslator: ChatTranslator = {
  buildRequest: buildCohereChatRequest,
  readResponse: readCohereResponse,
  createStreamDecoder: createCohereStreamDecoder,
};

/** A Cohere error answer, with the kind of failure it is. */
export function readError(body: Buffer, status: number): UpstreamErrorDetails {
  return readCohereError(body, status);
}

/**
 * Cohere's native v2 API: chat (tools, tool plans, thinking, vision) translated for every client, and
 * embeddings. No client speaks Cohere's protocol, so there is no pass-through lane; 'openai-chat' without a
 * passThrough capability sends OpenAI clients through the translator too.
 */
export const cohereAdapter: ProviderAdapter = {
  wireFormat: 'cohere',
  protocol: 'openai-chat',
  translator: cohereTranslator,
  embeddings: cohereEmbeddings,
  readError,
};
