import type {
  ChatTranslator,
  CredentialFetch,
  PreparedCredential,
  UpstreamErrorDetails,
} from '../../canonical/translation';
import type { ChannelCredentials, ProviderAdapter } from '../provider-types';
import { fetchBaiduAccessToken } from './baidu-access-token';
import { baiduEmbeddings } from './baidu-embeddings';
import { buildBaiduRequest } from './baidu-request';
import { createBaiduStreamDecoder } from './baidu-stream-decoder';
import { readBaiduResponse } from './convert-baidu-response';
import { readBaiduError } from './read-baidu-error';

/**
 * Canonical chat on Baidu Qianfan: ERNIE's v1 API for `APIKey|SecretKey` channels, Qianfan's OpenAI-compatible
 * v2 API for channels with one API key. Answers and streams are read as whichever of the two they are.
 */
export const baiduTranslator: ChatTranslator = {
  buildRequest: buildBaiduRequest,
  readResponse: readBaiduResponse,
  createStreamDecoder: createBaiduStreamDecoder,
};

/** A Baidu error answer (v1's error_code or v2's OpenAI error), with the kind of failure it is. */
export function readError(body: Buffer, status: number): UpstreamErrorDetails {
  return readBaiduError(body, status);
}

/** The access token of an `APIKey|SecretKey` channel (30 days); a v2 API key is its own bearer token. */
export function prepareCredential(
  channel: ChannelCredentials,
  fetch: CredentialFetch,
): Promise<PreparedCredential> {
  return fetchBaiduAccessToken(channel, fetch);
}

/**
 * Baidu Wenxin (channel type 15). Every client is translated: the lane cannot depend on the channel's key,
 * and a v1 channel speaks no client's protocol. Chat and embeddings.
 */
export const baiduAdapter: ProviderAdapter = {
  wireFormat: 'baidu-wenxin',
  protocol: 'baidu-wenxin',
  translator: baiduTranslator,
  embeddings: baiduEmbeddings,
  prepareCredential,
  readError,
};

export { buildBaiduTokenRequest, fetchBaiduAccessToken, readBaiduTokenAnswer } from './baidu-access-token';
export { baiduEmbeddings } from './baidu-embeddings';
export { findBaiduChatEndpoint, findBaiduEmbeddingEndpoint } from './baidu-endpoints';
export { BAIDU_KEY_FORMAT, parseBaiduKey, validateBaiduKey } from './baidu-key';
