import type { ChatTranslator } from '../../canonical/translation';
import type { ProviderAdapter } from '../provider-types';
import { bedrockEmbeddings } from './bedrock-embeddings';
import { buildBedrockRequest } from './bedrock-request';
import { createBedrockStreamDecoder } from './bedrock-stream-decoder';
import { readBedrockResponse } from './convert-from-bedrock-response';
import { readBedrockError } from './map-bedrock-error';

export { BEDROCK_KEY_FORMAT, validateBedrockKey } from './bedrock-key';
export { BedrockStreamError, readBedrockError } from './map-bedrock-error';

/**
 * AWS Bedrock (channel type 33) through the Converse API: one request shape for every model Bedrock hosts,
 * SigV4-signed with the channel's `AccessKeyId|SecretAccessKey|region`, streams as AWS binary event streams.
 */
export const bedrockTranslator: ChatTranslator = {
  buildRequest: (input) => buildBedrockRequest(input),
  readResponse: readBedrockResponse,
  createStreamDecoder: createBedrockStreamDecoder,
};

/**
 * No client speaks Converse, so there is no pass-through lane: every client is translated. Chat, and
 * embeddings through InvokeModel with the body of the model's family (Titan Text Embeddings, Cohere Embed);
 * Bedrock's image models have their own bodies and are not served. Bedrock names its exception in the
 * x-amzn-errortype header, which readError reads with the body.
 */
export const bedrockAdapter: ProviderAdapter = {
  wireFormat: 'bedrock-converse',
  protocol: 'bedrock-converse',
  translator: bedrockTranslator,
  embeddings: bedrockEmbeddings,
  readError: (body, status, headers) => {
    const errorType = headers?.['x-amzn-errortype'];
    return readBedrockError(body, status, Array.isArray(errorType) ? errorType[0] : errorType);
  },
};
