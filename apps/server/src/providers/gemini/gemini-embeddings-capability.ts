import type { EmbeddingRequest } from '../../canonical/chat';
import type { JsonRequestInput, ReadResponse } from '../provider-types';
import { convertGeminiEmbedResponse, convertToGeminiEmbedRequest } from './convert-gemini-embeddings';
import { geminiApiEndpoint, type GeminiEndpoint } from './gemini-endpoint';

/**
 * POST /v1/embeddings for an OpenAI client, over batchEmbedContents. The answer depends on the request: the
 * client's model name, and `encoding_format` — OpenAI's SDKs ask for base64 unless told otherwise and decode
 * it, so floats where base64 was asked would be read as garbage. readResponse therefore needs the request as
 * its second argument; without it, it answers floats and the upstream's model.
 */
export function createGeminiEmbeddingsCapability(endpoint: GeminiEndpoint = geminiApiEndpoint) {
  return {
    buildRequest: (input: JsonRequestInput) => ({
      url: endpoint.buildUrl(input.channel, input.upstreamModel, 'batchEmbedContents'),
      headers: endpoint.buildHeaders(input.channel),
      body: JSON.stringify(convertToGeminiEmbedRequest(input.body as EmbeddingRequest, input.upstreamModel)),
    }),
    readResponse(body: Buffer, input?: JsonRequestInput): ReadResponse {
      const request = input?.body as Partial<EmbeddingRequest> | undefined;
      const { response, usage } = convertGeminiEmbedResponse(body, {
        model: typeof request?.model === 'string' ? request.model : (input?.upstreamModel ?? ''),
        encodingFormat: request?.encoding_format,
      });
      return { body: Buffer.from(JSON.stringify(response)), usage, completionText: '', answer: response };
    },
  };
}
