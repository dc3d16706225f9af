import type { EmbeddingRequest, EmbeddingResponse } from '../../canonical/chat';
import { UnsupportedOptionError, UpstreamFormatError, type TokenUsage } from '../../canonical/translation';
import type {
  JsonCapability,
  JsonRequestInput,
  MaybeAsync,
  ReadResponse,
  UpstreamRequest,
} from '../provider-types';
import { encodeFloat32Base64 } from '../shared/float32-base64';
import { BEDROCK } from './bedrock-converse-types';
import { parseBedrockKey } from './bedrock-key';
import { signBedrockRequest } from './bedrock-signing';

/** The embedding families Bedrock's InvokeModel serves here, each with its own body. */
type Family = 'titan-v1' | 'titan-v2' | 'cohere';

function familyOf(modelId: string): Family | null {
  if (modelId.includes('amazon.titan-embed-text-v1')) return 'titan-v1';
  if (modelId.includes('amazon.titan-embed-text-v2')) return 'titan-v2';
  if (modelId.includes('cohere.embed-')) return 'cohere';
  return null;
}

/** Titan Text Embeddings V2's output sizes (https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-titan-embed-text.html). */
const TITAN_V2_DIMENSIONS = new Set([256, 512, 1024]);

function textsOf(request: EmbeddingRequest): string[] {
  const inputs: unknown[] = Array.isArray(request.input) ? request.input : [request.input];
  if (!inputs.every((input): input is string => typeof input === 'string')) {
    throw new UnsupportedOptionError(BEDROCK, 'token arrays as embedding input', 'send the input as text');
  }
  return inputs;
}

/**
 * An OpenAI embeddings request → the InvokeModel body of the model's family: Titan Text Embeddings take one
 * `inputText` (V2 also `dimensions` and `normalize`), Cohere Embed on Bedrock `texts` with an `input_type`
 * (documents to store, as OpenAI clients embed most).
 */
export function convertToBedrockEmbedBody(
  request: EmbeddingRequest,
  modelId: string,
): Record<string, unknown> {
  const family = familyOf(modelId);
  if (!family) {
    throw new UnsupportedOptionError(
      BEDROCK,
      `embeddings with ${modelId}`,
      'map the model to Titan Text Embeddings (amazon.titan-embed-text-v2:0) or Cohere Embed (cohere.embed-…)',
    );
  }
  const texts = textsOf(request);
  if (family === 'cohere') {
    return {
      texts,
      input_type: 'search_document',
      embedding_types: ['float'],
    };
  }
  if (texts.length !== 1) {
    throw new UnsupportedOptionError(
      BEDROCK,
      'several inputs in one Titan embeddings request',
      'send one a request',
    );
  }
  if (family === 'titan-v1') {
    if (request.dimensions !== undefined)
      throw new UnsupportedOptionError(BEDROCK, 'dimensions with Titan V1');
    return { inputText: texts[0] };
  }
  if (request.dimensions !== undefined && !TITAN_V2_DIMENSIONS.has(request.dimensions)) {
    throw new UnsupportedOptionError(
      BEDROCK,
      `dimensions ${request.dimensions}`,
      'Titan V2 gives 256, 512 or 1024',
    );
  }
  return {
    inputText: texts[0],
    ...(request.dimensions !== undefined ? { dimensions: request.dimensions } : {}),
    normalize: true,
  };
}

interface BedrockEmbedAnswer {
  /** Titan */
  embedding?: number[];
  inputTextTokenCount?: number;
  /** Cohere: the vectors, or by type when embedding_types was sent */
  embeddings?: number[][] | { float?: number[][] };
}

/** The vectors and billed tokens of a Titan or Cohere InvokeModel answer. */
function readVectors(body: Buffer): { vectors: number[][]; tokens: number | null } {
  let answer: BedrockEmbedAnswer;
  try {
    answer = JSON.parse(body.toString('utf8')) as BedrockEmbedAnswer;
  } catch {
    throw new UpstreamFormatError(
      `${BEDROCK} answered an embeddings request with something that is not JSON`,
    );
  }
  if (Array.isArray(answer?.embedding)) {
    const count = answer.inputTextTokenCount;
    return { vectors: [answer.embedding], tokens: typeof count === 'number' && count >= 0 ? count : null };
  }
  const vectors = Array.isArray(answer?.embeddings) ? answer.embeddings : answer?.embeddings?.float;
  if (!Array.isArray(vectors) || !vectors.every(Array.isArray))
    throw new UpstreamFormatError(`${BEDROCK} answered an embeddings request without embeddings`);
  // Cohere Embed on Bedrock reports no token count: the relay counts the input.
  return { vectors, tokens: null };
}

function buildRequest(input: JsonRequestInput): Promise<UpstreamRequest> {
  const credentials = parseBedrockKey(input.channel.key);
  const modelId = input.upstreamModel;
  const body = JSON.stringify(convertToBedrockEmbedBody(input.body as EmbeddingRequest, modelId));
  const base = input.channel.baseUrl || `https://bedrock-runtime.${credentials.region}.amazonaws.com`;
  const url = `${base}/model/${encodeURIComponent(modelId)}/invoke`;
  const headers = { 'content-type': 'application/json', accept: 'application/json' };
  return signBedrockRequest({ url, headers, body }, credentials).then((signed) => ({
    url,
    headers: signed,
    body,
  }));
}

/**
 * POST /v1/embeddings over Bedrock's InvokeModel (`/model/{modelId}/invoke`, SigV4-signed like Converse):
 * Titan Text Embeddings (billed its inputTextTokenCount) and Cohere Embed, answered as OpenAI's embeddings list
 * in the encoding the client asked for.
 */
export const bedrockEmbeddings: JsonCapability<JsonRequestInput, MaybeAsync<UpstreamRequest>> = {
  buildRequest,
  readResponse(body: Buffer, input?: JsonRequestInput): ReadResponse {
    const request = input?.body as Partial<EmbeddingRequest> | undefined;
    const { vectors, tokens } = readVectors(body);
    const response: EmbeddingResponse = {
      object: 'list',
      data: vectors.map((vector, index) => ({
        object: 'embedding',
        index,
        embedding: request?.encoding_format === 'base64' ? encodeFloat32Base64(vector) : vector,
      })),
      model: typeof request?.model === 'string' ? request.model : (input?.upstreamModel ?? ''),
      usage: { prompt_tokens: tokens ?? 0, total_tokens: tokens ?? 0 },
    };
    const usage: TokenUsage | null = tokens === null ? null : { promptTokens: tokens, completionTokens: 0 };
    return { body: Buffer.from(JSON.stringify(response)), usage, completionText: '', answer: response };
  },
};
