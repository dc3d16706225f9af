import type { EmbeddingRequest } from '../../canonical/chat';
import type { JsonCapability, JsonRequestInput, ReadResponse } from '../provider-types';
import { convertCohereEmbedResponse, convertToCohereEmbedRequest } from './convert-cohere-embeddings';

/**
 * POST /v1/embeddings for an OpenAI client, over Cohere's POST /v2/embed. The answer depends on the request
 * (the client's model name, and encoding_format: OpenAI's SDKs ask for base64 unless told otherwise), so
 * readResponse takes the request as an optional second argument; without it, it answers floats and names
 * no model.
 */
export const cohereEmbeddings = {
  buildRequest: (input: JsonRequestInput) => ({
    url: `${input.channel.baseUrl}/v2/embed`,
    headers: { authorization: `Bearer ${input.channel.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(convertToCohereEmbedRequest(input.body as EmbeddingRequest, input.upstreamModel)),
  }),
  readResponse(body: Buffer, input?: JsonRequestInput): ReadResponse {
    const request = input?.body as Partial<EmbeddingRequest> | undefined;
    const { response, usage } = convertCohereEmbedResponse(body, {
      model: typeof request?.model === 'string' ? request.model : (input?.upstreamModel ?? ''),
      encodingFormat: request?.encoding_format,
    });
    return { body: Buffer.from(JSON.stringify(response)), usage, completionText: '', answer: response };
  },
} satisfies JsonCapability;
