import type { EmbeddingRequest } from '../../canonical/chat';
import type { ChatTranslator, TranslatorChannel, UpstreamHttpRequest } from '../../canonical/translation';
import {
  createOpenAICompatibleAdapter,
  prefixedLayout,
} from '../openai-compatible/openai-compatible-adapter';
import type { ProviderAdapter } from '../provider-types';
import { convertToGeminiEmbedRequest } from './convert-gemini-embeddings';
import { readGeminiResponse } from './convert-gemini-response';
import { convertToGeminiRequest } from './convert-to-gemini-request';
import { createGeminiCountTokensCapability } from './gemini-count-tokens';
import { createGeminiEmbeddingsCapability } from './gemini-embeddings-capability';
import { geminiApiEndpoint, type GeminiEndpoint } from './gemini-endpoint';
import {
  buildGeminiPassThroughRequest,
  createGeminiPassThroughStreamReader,
  readGeminiPassThroughResponse,
} from './gemini-pass-through';
import { createGeminiStreamDecoder } from './gemini-stream-decoder';
import { readGeminiError } from './read-gemini-error';

/** Chat over generateContent / streamGenerateContent at an endpoint. */
export function createGeminiTranslator(endpoint: GeminiEndpoint): ChatTranslator {
  return {
    buildRequest: ({ channel, request, upstreamModel, isStream }) => ({
      url: endpoint.buildUrl(channel, upstreamModel, isStream ? 'streamGenerateContent' : 'generateContent'),
      headers: endpoint.buildHeaders(channel),
      body: JSON.stringify(convertToGeminiRequest(request, upstreamModel)),
    }),
    readResponse: readGeminiResponse,
    createStreamDecoder: createGeminiStreamDecoder,
  };
}

export const geminiTranslator = createGeminiTranslator(geminiApiEndpoint);

/** Embeddings over batchEmbedContents; read the answer with convertGeminiEmbedResponse. */
export function buildGeminiEmbedRequest(
  channel: TranslatorChannel,
  request: EmbeddingRequest,
  upstreamModel: string,
  endpoint: GeminiEndpoint = geminiApiEndpoint,
): UpstreamHttpRequest {
  return {
    url: endpoint.buildUrl(channel, upstreamModel, 'batchEmbedContents'),
    headers: endpoint.buildHeaders(channel),
    body: JSON.stringify(convertToGeminiEmbedRequest(request, upstreamModel)),
  };
}

export { convertGeminiEmbedResponse, convertToGeminiEmbedRequest } from './convert-gemini-embeddings';
export { readGeminiError } from './read-gemini-error';
export { createGeminiEmbeddingsCapability } from './gemini-embeddings-capability';
export { createGeminiStreamUsageSniffer, readGeminiUsage } from './read-gemini-usage';
export { geminiApiEndpoint, type GeminiEndpoint } from './gemini-endpoint';
export {
  buildGeminiPassThroughRequest,
  createGeminiPassThroughStreamReader,
  readGeminiPassThroughResponse,
} from './gemini-pass-through';

/** Google's OpenAI compatibility endpoint (https://ai.google.dev/gemini-api/docs/openai), for images. */
const googleOpenAICompatible = createOpenAICompatibleAdapter({
  ...prefixedLayout('gemini-openai-compatible', '/v1beta/openai'),
  omit: [
    'completions',
    'embeddings',
    'moderations',
    'audioSpeech',
    'audioTranscriptions',
    'audioTranslations',
  ],
});

/**
 * The Gemini API's own generateContent: Gemini clients pass through (their bytes, usage read on the side),
 * every other client is translated. Embeddings over batchEmbedContents, Gemini clients' token counts
 * forwarded to countTokens. Errors are Google's error object, also from the compatibility endpoint.
 */
export const geminiAdapter: ProviderAdapter = {
  wireFormat: 'gemini',
  protocol: 'gemini',
  passThrough: {
    buildRequest: (input) =>
      buildGeminiPassThroughRequest(input.channel, input.rawBody, input.upstreamModel, input.isStream),
    readResponse: readGeminiPassThroughResponse,
    createStreamReader: () => createGeminiPassThroughStreamReader(),
  },
  translator: geminiTranslator,
  countTokens: createGeminiCountTokensCapability(),
  embeddings: createGeminiEmbeddingsCapability(),
  images: googleOpenAICompatible.images,
  readError: readGeminiError,
};
