import type { EmbeddingRequest, EmbeddingResponse } from '../../canonical/chat';
import {
  UnsupportedOptionError,
  UpstreamFormatError,
  type TokenUsage,
  type UpstreamHttpRequest,
} from '../../canonical/translation';
import type { JsonCapability, JsonRequestInput, ReadResponse } from '../provider-types';
import { buildVertexHeaders, buildVertexUrl } from './vertex-endpoint';
import { encodeFloat32Base64 } from '../shared/float32-base64';

const VERTEX_AI = 'Vertex AI';

/** The text embeddings request of `:predict` (https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/text-embeddings-api). */
export interface VertexEmbedRequest {
  instances: Array<{ content: string }>;
  parameters?: { outputDimensionality?: number };
}

interface VertexEmbedPrediction {
  embeddings?: { values?: unknown; statistics?: { token_count?: unknown; truncated?: boolean } };
}

/**
 * OpenAI's embeddings request as Vertex's: one instance per input text, in order, `dimensions` as
 * outputDimensionality. Token arrays have no Vertex equivalent. (gemini-embedding-001 takes one instance
 * per request: Vertex refuses a list for it.)
 */
export function convertToVertexEmbedRequest(
  request: Pick<EmbeddingRequest, 'input' | 'dimensions'>,
): VertexEmbedRequest {
  const inputs: unknown[] = Array.isArray(request.input) ? request.input : [request.input];
  if (!inputs.every((input): input is string => typeof input === 'string')) {
    throw new UnsupportedOptionError(VERTEX_AI, 'token arrays as embedding input', 'send the input as text');
  }
  return {
    instances: inputs.map((content) => ({ content })),
    ...(typeof request.dimensions === 'number'
      ? { parameters: { outputDimensionality: request.dimensions } }
      : {}),
  };
}

export function buildVertexEmbedRequest(input: JsonRequestInput): UpstreamHttpRequest {
  const { channel, body, upstreamModel } = input;
  return {
    url: buildVertexUrl(channel, 'google', upstreamModel, 'predict'),
    method: 'POST',
    headers: buildVertexHeaders(channel),
    body: JSON.stringify(convertToVertexEmbedRequest(body as Pick<EmbeddingRequest, 'input' | 'dimensions'>)),
  };
}

/** OpenAI's base64 format: the float32 values, little-endian, in base64. */
/** Vertex counts the tokens of each input (statistics.token_count); usage is their sum, or null if one lacks it. */
function sumTokenCounts(predictions: VertexEmbedPrediction[]): TokenUsage | null {
  const counts = predictions.map((prediction) => prediction.embeddings?.statistics?.token_count);
  if (counts.length === 0 || !counts.every((count): count is number => typeof count === 'number'))
    return null;
  return { promptTokens: counts.reduce((sum, count) => sum + count, 0), completionTokens: 0 };
}

export interface ConvertedVertexEmbeddings {
  response: EmbeddingResponse;
  usage: TokenUsage | null;
}

/** A `:predict` answer (`predictions[].embeddings.values`) as OpenAI's embeddings response. */
export function convertVertexEmbedResponse(
  body: Buffer,
  options: { model: string; encodingFormat?: EmbeddingRequest['encoding_format'] },
): ConvertedVertexEmbeddings {
  let parsed: { predictions?: unknown } | null;
  try {
    parsed = JSON.parse(body.toString('utf8')) as { predictions?: unknown } | null;
  } catch {
    throw new UpstreamFormatError('Vertex AI answered embeddings with a body that is not JSON');
  }
  const predictions = parsed?.predictions;
  if (
    !Array.isArray(predictions) ||
    !predictions.every((prediction: VertexEmbedPrediction) => Array.isArray(prediction?.embeddings?.values))
  ) {
    throw new UpstreamFormatError('Vertex AI answered embeddings without predictions[].embeddings.values');
  }
  const usage = sumTokenCounts(predictions as VertexEmbedPrediction[]);
  const promptTokens = usage?.promptTokens ?? 0;
  return {
    response: {
      object: 'list',
      data: (predictions as Array<{ embeddings: { values: number[] } }>).map(({ embeddings }, index) => ({
        object: 'embedding',
        index,
        embedding:
          options.encodingFormat === 'base64' ? encodeFloat32Base64(embeddings.values) : embeddings.values,
      })),
      model: options.model,
      usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
    },
    usage,
  };
}

/**
 * The embeddings capability reads the answer with the request it answers when it is given one (the model
 * to name and the encoding_format asked for); without it, the answer names no model and gives floats.
 */
export interface VertexEmbeddingsCapability extends JsonCapability {
  readResponse(body: Buffer, input?: JsonRequestInput): ReadResponse;
}

/** OpenAI's /v1/embeddings on Vertex AI's text embedding models (text-embedding-005, gemini-embedding-001 …). */
export const vertexEmbeddings: VertexEmbeddingsCapability = {
  buildRequest: buildVertexEmbedRequest,
  readResponse(body, input) {
    const encodingFormat = input?.body.encoding_format === 'base64' ? 'base64' : 'float';
    const { response, usage } = convertVertexEmbedResponse(body, {
      model: input?.upstreamModel ?? '',
      encodingFormat,
    });
    return { body: Buffer.from(JSON.stringify(response)), usage, completionText: '', answer: response };
  },
};
