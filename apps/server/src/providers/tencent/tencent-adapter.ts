import type { ChatTranslator, UpstreamErrorDetails } from '../../canonical/translation';
import type { ProviderAdapter } from '../provider-types';
import { readTencentResponse } from './convert-tencent-response';
import { readTencentError } from './read-tencent-error';
import { tencentEmbeddings } from './tencent-embeddings';
import { buildTencentRequest } from './tencent-request';
import { createTencentStreamDecoder } from './tencent-stream-decoder';

/**
 * Canonical chat on Tencent Hunyuan's ChatCompletions action (API 3.0, TC3-HMAC-SHA256 signed with the
 * channel's `AppId|SecretId|SecretKey`).
 */
export const tencentTranslator: ChatTranslator = {
  buildRequest: (input) => buildTencentRequest(input),
  readResponse: readTencentResponse,
  createStreamDecoder: createTencentStreamDecoder,
};

/** A Tencent Cloud error answer, with the kind of failure it is. */
export function readError(body: Buffer, status: number): UpstreamErrorDetails {
  return readTencentError(body, status);
}

/**
 * Tencent Hunyuan (channel type 23). No client speaks API 3.0, so every client is translated. Chat and
 * embeddings (GetEmbedding). No credential to prepare: each request is signed as it is built.
 */
export const tencentAdapter: ProviderAdapter = {
  wireFormat: 'tencent-hunyuan',
  protocol: 'tencent-hunyuan',
  translator: tencentTranslator,
  embeddings: tencentEmbeddings,
  readError,
};

export { signTc3 } from './tencent-tc3-signature';
export { TENCENT_KEY_FORMAT, parseTencentKey, validateTencentKey } from './tencent-key';
export { tencentEmbeddings } from './tencent-embeddings';
