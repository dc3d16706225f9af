import type { ChatTranslator, UpstreamErrorDetails } from '../../canonical/translation';
import type { ProviderAdapter } from '../provider-types';
import { buildDeepLRequest } from './convert-to-deepl-request';
import { readDeepLResponse } from './convert-deepl-response';
import { createDeepLStreamDecoder } from './deepl-stream-decoder';
import { readDeepLError } from './read-deepl-error';

export { findDeepLBaseUrl, isDeepLFreeKey } from './deepl-endpoint';
export { DEFAULT_DEEPL_TARGET_LANGUAGE, findDeepLTargetLanguage } from './find-deepl-target-language';

/**
 * DeepL translation served as chat (https://developers.deepl.com/api-reference/translate): the last user
 * message is translated into the language the model name carries (deepl-ZH, deepl-EN-US …); the answer's
 * content is the translation; billed characters are billed as prompt tokens.
 */
export const deepLTranslator: ChatTranslator = {
  buildRequest: buildDeepLRequest,
  readResponse: readDeepLResponse,
  createStreamDecoder: createDeepLStreamDecoder,
};

/** A DeepL error answer, with the kind of failure it is. */
export function readError(body: Buffer, status: number): UpstreamErrorDetails {
  return readDeepLError(body, status);
}

/** DeepL, chat (as translation) only. No client speaks DeepL's protocol: every client is translated. */
export const deepLAdapter: ProviderAdapter = {
  wireFormat: 'deepl',
  protocol: 'openai-chat',
  translator: deepLTranslator,
  readError,
};
