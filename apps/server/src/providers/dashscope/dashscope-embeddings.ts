import type { EmbeddingRequest, EmbeddingResponse } from '../../canonical/chat';
import {
  UnsupportedOptionError,
  UpstreamFormatError,
  UpstreamReportedError,
  type UpstreamHttpRequest,
} from '../../canonical/translation';
import type { JsonCapability, JsonRequestInput, ReadResponse } from '../provider-types';
import { buildDashScopeHeaders } from './dashscope-request';
import {
  DASHSCOPE,
  type DashScopeEmbeddingRequest,
  type DashScopeEmbeddingResponse,
} from './dashscope-wire-types';
import { readDashScopeErrorObject } from './read-dashscope-error';
import { encodeFloat32Base64 } from '../shared/float32-base64';

const EMBEDDING_PATH = '/api/v1/services/embeddings/text-embedding/text-embedding';

/**
 * OpenAI's embeddings request as DashScope's text-embedding body
 * (https://help.aliyun.com/zh/model-studio/text-embedding-synchronous-api): the texts in input.texts,
 * `dimensions` as parameters.dimension (text-embedding-v3 and later). Token arrays have no equivalent.
 */
export function convertToDashScopeEmbeddingRequest(
  request: Pick<EmbeddingRequest, 'input' | 'dimensions'>,
  model: string,
): DashScopeEmbeddingRequest {
  const inputs: unknown[] = Array.isArray(request.input) ? request.input : [request.input];
  if (!inputs.every((input): input is string => typeof input === 'string')) {
    throw new UnsupportedOptionError(DASHSCOPE, 'token arrays as embedding input', 'send the input as text');
  }
  return {
    model,
    input: { texts: inputs },
    ...(typeof request.dimensions === 'number' ? { parameters: { dimension: request.dimensions } } : {}),
  };
}

function buildRequest(input: JsonRequestInput): UpstreamHttpRequest {
  const body = convertToDashScopeEmbeddingRequest(
    input.body as Pick<EmbeddingRequest, 'input' | 'dimensions'>,
    input.upstreamModel,
  );
  return {
    url: `${input.channel.baseUrl}${EMBEDDING_PATH}`,
    headers: buildDashScopeHeaders(input.channel),
    body: JSON.stringify(body),
  };
}

/** `output.embeddings[{text_index, embedding}]` and `usage.total_tokens` as OpenAI's embeddings response. */
function readResponse(body: Buffer, input?: JsonRequestInput): ReadResponse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new UpstreamFormatError(`${DASHSCOPE} answered embeddings with a body that is not JSON`);
  }
  const error = readDashScopeErrorObject(parsed, 200);
  if (error) throw new UpstreamReportedError(DASHSCOPE, error);
  const answer = parsed as DashScopeEmbeddingResponse | null;
  const embeddings = answer?.output?.embeddings;
  if (!Array.isArray(embeddings) || !embeddings.every((item) => Array.isArray(item?.embedding))) {
    throw new UpstreamFormatError(`${DASHSCOPE} answered embeddings without output.embeddings[].embedding`);
  }
  const isBase64 = input?.body.encoding_format === 'base64';
  const tokens = answer?.usage?.total_tokens;
  const usage = typeof tokens === 'number' ? { promptTokens: tokens, completionTokens: 0 } : null;
  const response: EmbeddingResponse = {
    object: 'list',
    data: embeddings
      .map((item, position) => ({
        object: 'embedding' as const,
        index: item.text_index ?? position,
        embedding: isBase64 ? encodeFloat32Base64(item.embedding!) : item.embedding!,
      }))
      .sort((first, second) => first.index - second.index),
    model: input?.upstreamModel ?? '',
    usage: { prompt_tokens: tokens ?? 0, total_tokens: tokens ?? 0 },
  };
  return { body: Buffer.from(JSON.stringify(response)), usage, completionText: '', answer: response };
}

/** OpenAI's /v1/embeddings on DashScope's text-embedding-v1/v2/v3/v4, natively. */
export const dashScopeEmbeddings: JsonCapability = { buildRequest, readResponse };
