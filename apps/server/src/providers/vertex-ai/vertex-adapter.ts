import type { ChatTranslator } from '../../canonical/translation';
import { createGeminiTranslator } from '../gemini/gemini-adapter';
import type { ProviderAdapter } from '../provider-types';
import { readVertexError } from './read-vertex-error';
import { readVertexResponse } from './read-vertex-response';
import { prepareVertexCredential } from './vertex-access-token';
import { isClaudeModel } from './vertex-claude-model-id';
import { buildVertexClaudeRequest } from './vertex-claude-request';
import { vertexEmbeddings } from './vertex-embeddings';
import { vertexGeminiEndpoint } from './vertex-endpoint';
import { createVertexStreamDecoder } from './vertex-stream-decoder';

const geminiOnVertex = createGeminiTranslator(vertexGeminiEndpoint);

/**
 * Canonical chat on Vertex AI: Claude models (claude-…) through Anthropic's Messages API on rawPredict, every
 * other model through Gemini's generateContent. Answers and streams are read as whichever of the two they are.
 */
export const vertexTranslator: ChatTranslator = {
  buildRequest: (input) =>
    isClaudeModel(input.upstreamModel) ? buildVertexClaudeRequest(input) : geminiOnVertex.buildRequest(input),
  readResponse: readVertexResponse,
  createStreamDecoder: createVertexStreamDecoder,
};

/**
 * Vertex AI (https://cloud.google.com/vertex-ai/generative-ai/docs): Gemini and Claude models in the channel's
 * region and project, signed in with a service account key turned into an access token. Every client is
 * translated: one channel speaks two protocols, chosen by model, so no client's bytes can be forwarded as they
 * are. Embeddings through `:predict`.
 */
export const vertexAdapter: ProviderAdapter = {
  wireFormat: 'vertex-ai',
  protocol: 'gemini',
  translator: vertexTranslator,
  embeddings: vertexEmbeddings,
  prepareCredential: prepareVertexCredential,
  readError: readVertexError,
};

export { readVertexError } from './read-vertex-error';
export { fetchVertexAccessToken, prepareVertexCredential } from './vertex-access-token';
export { toVertexClaudeModelId } from './vertex-claude-model-id';
export { buildVertexEmbedRequest, convertVertexEmbedResponse, vertexEmbeddings } from './vertex-embeddings';
export { buildVertexUrl, vertexHost } from './vertex-endpoint';
export { VERTEX_KEY_FORMAT, validateVertexConfig, validateVertexKey } from './vertex-key';
