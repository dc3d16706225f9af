import type { EmbeddingRequest, EmbeddingResponse } from '../../canonical/chat';
import { UnsupportedOptionError, UpstreamFormatError, type TokenUsage } from '../../canonical/translation';
import { GEMINI } from './convert-to-gemini-parts';
import { convertGeminiUsage } from './convert-gemini-usage';
import { parseGeminiJson } from './parse-gemini-json';
import type {
  GeminiBatchEmbedContentsRequest,
  GeminiBatchEmbedContentsResponse,
  GeminiContentEmbedding,
} from './gemini-wire-types';

const modelResource = (model: string) => (model.startsWith('models/') ? model : `models/${model}`);

/**
 * OpenAI's embeddings request as batchEmbedContents (https://ai.google.dev/api/embeddings): one request per
 * input text, in order, with `dimensions` as outputDimensionality. Token arrays have no Gemini equivalent.
 */
export function convertToGeminiEmbedRequest(
  request: EmbeddingRequest,
  upstreamModel: string,
): GeminiBatchEmbedContentsRequest {
  const inputs = typeof request.input === 'string' ? [request.input] : request.input;
  if (!inputs.every((input): input is string => typeof input === 'string')) {
    throw new UnsupportedOptionError(GEMINI, 'token arrays as embedding input', 'send the input as text');
  }
  const model = modelResource(upstreamModel);
  return {
    requests: inputs.map((text) => ({
      model,
      content: { parts: [{ text }] },
      ...(request.dimensions !== undefined ? { outputDimensionality: request.dimensions } : {}),
    })),
  };
}

/** OpenAI's base64 format: the float32 values, little-endian, in base64. */
function toBase64(values: number[]): string {
  const bytes = Buffer.alloc(values.length * 4);
  values.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes.toString('base64');
}

/** Vertex AI counts each input (statistics.tokenCount); the Gemini API counts nothing. */
function sumStatistics(embeddings: GeminiContentEmbedding[]): TokenUsage | null {
  const counts = embeddings.map((embedding) => embedding.statistics?.tokenCount);
  if (counts.length === 0 || !counts.every((count) => typeof count === 'number')) return null;
  return {
    promptTokens: counts.reduce((sum: number, count) => sum + (count as number), 0),
    completionTokens: 0,
  };
}

export interface ConvertedEmbeddings {
  response: EmbeddingResponse;
  /** null when the upstream reported no counts: the relay counts the input itself */
  usage: TokenUsage | null;
}

/**
 * A batchEmbedContents answer as OpenAI's embeddings response. The Gemini API reports no token counts for
 * embeddings (its BatchEmbedContentsResponse has only `embeddings`); usageMetadata (should it appear) and
 * Vertex's per-input statistics are read when present. Without them usage is null and the response's usage
 * says 0 tokens: the relay, which counts the input for billing, should put its count there before answering.
 */
export function convertGeminiEmbedResponse(
  body: Buffer,
  options: { model: string; encodingFormat?: EmbeddingRequest['encoding_format'] },
): ConvertedEmbeddings {
  const parsed = parseGeminiJson(body) as Partial<GeminiBatchEmbedContentsResponse> | null;
  const embeddings = parsed?.embeddings;
  if (!Array.isArray(embeddings) || !embeddings.every((each) => Array.isArray(each?.values)))
    throw new UpstreamFormatError('Gemini answered embeddings without a list of values');
  const usage = convertGeminiUsage(parsed?.usageMetadata) ?? sumStatistics(embeddings);
  const promptTokens = usage?.promptTokens ?? 0;
  return {
    response: {
      object: 'list',
      data: embeddings.map((embedding, index) => ({
        object: 'embedding',
        index,
        embedding: options.encodingFormat === 'base64' ? toBase64(embedding.values) : embedding.values,
      })),
      model: options.model,
      usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
    },
    usage,
  };
}
