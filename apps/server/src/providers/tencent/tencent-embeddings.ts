import type { EmbeddingRequest, EmbeddingResponse } from '../../canonical/chat';
import {
  UnsupportedOptionError,
  UpstreamFormatError,
  UpstreamReportedError,
  type UpstreamHttpRequest,
} from '../../canonical/translation';
import type { JsonCapability, JsonRequestInput, ReadResponse } from '../provider-types';
import { convertTencentUsage } from './convert-tencent-usage';
import { convertTencentError, findTencentError } from './read-tencent-error';
import { buildTencentActionRequest } from './tencent-request';
import { TENCENT, type HunyuanEmbeddingResponse } from './tencent-wire-types';
import { encodeFloat32Base64 } from '../shared/float32-base64';

/** GetEmbedding takes at most 50 texts a call. */
const MAX_INPUTS = 50;

/**
 * OpenAI's embeddings request as GetEmbedding's body (https://cloud.tencent.com/document/api/1729/102832):
 * the texts as InputList. Hunyuan has one embedding model (hunyuan-embedding, 1024 dimensions): no model
 * field, no dimensions.
 */
export function convertToTencentEmbeddingRequest(request: Pick<EmbeddingRequest, 'input' | 'dimensions'>): {
  InputList: string[];
} {
  const inputs: unknown[] = Array.isArray(request.input) ? request.input : [request.input];
  if (!inputs.every((input): input is string => typeof input === 'string')) {
    throw new UnsupportedOptionError(TENCENT, 'token arrays as embedding input', 'send the input as text');
  }
  if (inputs.length > MAX_INPUTS)
    throw new UnsupportedOptionError(TENCENT, `more than ${MAX_INPUTS} embedding inputs`);
  if (request.dimensions !== undefined && request.dimensions !== 1024) {
    throw new UnsupportedOptionError(TENCENT, 'dimensions', 'hunyuan-embedding has 1024');
  }
  return { InputList: inputs };
}

function buildRequest(input: JsonRequestInput): UpstreamHttpRequest {
  const body = convertToTencentEmbeddingRequest(input.body as Pick<EmbeddingRequest, 'input' | 'dimensions'>);
  return buildTencentActionRequest(input.channel, 'GetEmbedding', JSON.stringify(body));
}

function readResponse(body: Buffer, input?: JsonRequestInput): ReadResponse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new UpstreamFormatError(`${TENCENT} answered embeddings with a body that is not JSON`);
  }
  const error = findTencentError(parsed);
  if (error) throw new UpstreamReportedError(TENCENT, convertTencentError(error));
  const response = (parsed as { Response?: HunyuanEmbeddingResponse } | null)?.Response;
  const data = response?.Data;
  if (!Array.isArray(data) || !data.every((item) => Array.isArray(item?.Embedding))) {
    throw new UpstreamFormatError(`${TENCENT} answered embeddings without Response.Data[].Embedding`);
  }
  const isBase64 = input?.body.encoding_format === 'base64';
  const usage = convertTencentUsage(response?.Usage);
  const promptTokens = usage?.promptTokens ?? 0;
  const answer: EmbeddingResponse = {
    object: 'list',
    data: data.map((item, position) => ({
      object: 'embedding',
      index: item.Index ?? position,
      embedding: isBase64 ? encodeFloat32Base64(item.Embedding!) : item.Embedding!,
    })),
    model: input?.upstreamModel ?? '',
    usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
  };
  return { body: Buffer.from(JSON.stringify(answer)), usage, completionText: '', answer };
}

/** OpenAI's /v1/embeddings on Hunyuan's GetEmbedding action, signed like chat. */
export const tencentEmbeddings: JsonCapability = { buildRequest, readResponse };
