import type { EmbeddingRequest, EmbeddingResponse } from '../../canonical/chat';
import { UnsupportedOptionError, UpstreamFormatError, type TokenUsage } from '../../canonical/translation';
import { COHERE, type CohereEmbedRequest, type CohereEmbedResponse } from './cohere-wire-types';

/** Cohere's input types (https://docs.cohere.com/reference/embed#request.body.input_type). */
const INPUT_TYPES = new Set(['search_document', 'search_query', 'classification', 'clustering']);

/**
 * An OpenAI embeddings request → the body of Cohere's POST /v2/embed. Documents to store are what OpenAI
 * clients embed most, so input_type is search_document unless the client names another Cohere input_type.
 */
export function convertToCohereEmbedRequest(
  request: EmbeddingRequest,
  upstreamModel: string,
): CohereEmbedRequest {
  const inputs = Array.isArray(request.input) ? request.input : [request.input];
  const texts = inputs.map((input) => {
    if (typeof input !== 'string') {
      throw new UnsupportedOptionError(COHERE, 'token arrays as embedding input', 'send the input as text');
    }
    return input;
  });
  const inputType =
    typeof request.input_type === 'string' && INPUT_TYPES.has(request.input_type)
      ? request.input_type
      : 'search_document';
  return {
    model: upstreamModel,
    texts,
    input_type: inputType,
    embedding_types: ['float'],
    ...(request.dimensions !== undefined ? { output_dimension: request.dimensions } : {}),
  };
}

/** A vector as OpenAI's base64 encoding_format sends it: little-endian float32 bytes. */
function toBase64(vector: number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes.toString('base64');
}

export interface CohereEmbedAnswerOptions {
  /** the model name the client asked for */
  model: string;
  encodingFormat?: 'float' | 'base64';
}

/** Cohere's embed answer → OpenAI's embeddings answer and the billed input tokens. */
export function convertCohereEmbedResponse(
  body: Buffer,
  options: CohereEmbedAnswerOptions,
): { response: EmbeddingResponse; usage: TokenUsage | null } {
  let parsed: CohereEmbedResponse;
  try {
    parsed = JSON.parse(body.toString('utf8')) as CohereEmbedResponse;
  } catch {
    throw new UpstreamFormatError('Cohere answered an embed request with something that is not JSON');
  }
  const vectors = parsed?.embeddings?.float;
  if (!Array.isArray(vectors))
    throw new UpstreamFormatError('Cohere answered an embed request without float embeddings');
  const billed = parsed.meta?.billed_units?.input_tokens;
  const tokens = typeof billed === 'number' && billed >= 0 ? billed : null;
  const response: EmbeddingResponse = {
    object: 'list',
    data: vectors.map((vector, index) => ({
      object: 'embedding',
      index,
      embedding: options.encodingFormat === 'base64' ? toBase64(vector) : vector,
    })),
    model: options.model,
    usage: { prompt_tokens: tokens ?? 0, total_tokens: tokens ?? 0 },
  };
  return { response, usage: tokens === null ? null : { promptTokens: tokens, completionTokens: 0 } };
}
