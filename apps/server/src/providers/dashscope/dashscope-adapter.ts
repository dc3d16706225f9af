import type { ChatTranslator, UpstreamErrorDetails } from '../../canonical/translation';
import type { ProviderAdapter } from '../provider-types';
import { readDashScopeResponse } from './convert-dashscope-response';
import { dashScopeEmbeddings } from './dashscope-embeddings';
import { buildDashScopeRequest } from './dashscope-request';
import { createDashScopeStreamDecoder } from './dashscope-stream-decoder';
import { readDashScopeError } from './read-dashscope-error';

/**
 * Canonical chat on DashScope's native API: text-generation for text models, multimodal-generation for
 * vision models (`-vl`, qvq), the channel's plugin field as X-DashScope-Plugin.
 */
export const dashScopeTranslator: ChatTranslator = {
  buildRequest: buildDashScopeRequest,
  readResponse: readDashScopeResponse,
  createStreamDecoder: createDashScopeStreamDecoder,
};

/** A DashScope error answer, with the kind of failure it is. */
export function readError(body: Buffer, status: number): UpstreamErrorDetails {
  return readDashScopeError(body, status);
}

/**
 * Alibaba DashScope natively (channel type 17). Every client is translated (no client speaks DashScope's
 * protocol). Chat and embeddings.
 */
export const dashScopeAdapter: ProviderAdapter = {
  wireFormat: 'dashscope',
  protocol: 'dashscope',
  translator: dashScopeTranslator,
  embeddings: dashScopeEmbeddings,
  readError,
};

export { dashScopeEmbeddings } from './dashscope-embeddings';
export { isDashScopeVisionModel, readDashScopeModelName } from './dashscope-model-traits';
