import type { EmbeddingRequest, EmbeddingResponse } from '../../canonical/chat';
import {
  UnsupportedOptionError,
  UpstreamFormatError,
  UpstreamReportedError,
  type UpstreamHttpRequest,
} from '../../canonical/translation';
import { convertOpenAIUsage } from '../openai-compatible/convert-openai-usage';
import type { JsonCapability, JsonRequestInput, MaybeAsync, ReadResponse } from '../provider-types';
import { findBaiduEmbeddingEndpoint } from './baidu-endpoints';
import { parseBaiduKey } from './baidu-key';
import { qianfanV2 } from './baidu-qianfan-v2';
import { buildBaiduV1Url } from './baidu-request';
import { BAIDU, type BaiduEmbeddingRequest, type BaiduEmbeddingResponse } from './baidu-wire-types';
import { readBaiduErrorObject } from './read-baidu-error';
import { encodeFloat32Base64 } from '../shared/float32-base64';

/** OpenAI's embeddings request as ERNIE's: texts only (no token arrays), `user` as user_id. */
export function convertToBaiduEmbeddingRequest(
  request: Pick<EmbeddingRequest, 'input' | 'user'>,
): BaiduEmbeddingRequest {
  const inputs: unknown[] = Array.isArray(request.input) ? request.input : [request.input];
  if (!inputs.every((input): input is string => typeof input === 'string')) {
    throw new UnsupportedOptionError(BAIDU, 'token arrays as embedding input', 'send the input as text');
  }
  return { input: inputs, ...(request.user ? { user_id: request.user } : {}) };
}

function buildRequest(input: JsonRequestInput): MaybeAsync<UpstreamHttpRequest> {
  if (parseBaiduKey(input.channel.key).version === 'v2') return qianfanV2.embeddings!.buildRequest(input);
  return {
    url: buildBaiduV1Url(input.channel, 'embeddings', findBaiduEmbeddingEndpoint(input.upstreamModel)),
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(
      convertToBaiduEmbeddingRequest(input.body as Pick<EmbeddingRequest, 'input' | 'user'>),
    ),
  };
}

/** OpenAI's base64 format: the float32 values, little-endian, in base64. */
/**
 * An embeddings answer of either API (v1's `embedding_list` and v2's list have the same data and usage) as
 * OpenAI's response, naming the model and in the encoding the request asked for when it is given.
 */
function readResponse(body: Buffer, input?: JsonRequestInput): ReadResponse {
  let parsed: BaiduEmbeddingResponse | null;
  try {
    parsed = JSON.parse(body.toString('utf8')) as BaiduEmbeddingResponse | null;
  } catch {
    throw new UpstreamFormatError(`${BAIDU} answered embeddings with a body that is not JSON`);
  }
  const error = readBaiduErrorObject(parsed);
  if (error) throw new UpstreamReportedError(BAIDU, error);
  const data = parsed?.data;
  const isVector = (value: unknown): value is number[] | string =>
    Array.isArray(value) || typeof value === 'string';
  if (!Array.isArray(data) || !data.every((item) => isVector(item?.embedding))) {
    throw new UpstreamFormatError(`${BAIDU} answered embeddings without data[].embedding`);
  }
  const isBase64 = input?.body.encoding_format === 'base64';
  const usage = convertOpenAIUsage(parsed?.usage);
  const promptTokens = usage?.promptTokens ?? 0;
  const response: EmbeddingResponse = {
    object: 'list',
    data: data.map((item, position) => ({
      object: 'embedding',
      index: item.index ?? position,
      embedding:
        isBase64 && Array.isArray(item.embedding) ? encodeFloat32Base64(item.embedding) : item.embedding!,
    })),
    model: input?.upstreamModel ?? '',
    usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
  };
  return { body: Buffer.from(JSON.stringify(response)), usage, completionText: '', answer: response };
}

/**
 * OpenAI's /v1/embeddings on ERNIE's embedding models (Embedding-V1, bge-large-zh, bge-large-en, tao-8k) with
 * `APIKey|SecretKey`, or on Qianfan v2's /v2/embeddings with one API key.
 */
export const baiduEmbeddings: JsonCapability<JsonRequestInput, MaybeAsync<UpstreamHttpRequest>> = {
  buildRequest,
  readResponse,
};
