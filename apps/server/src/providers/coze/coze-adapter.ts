import type { ChatTranslator, UpstreamErrorDetails } from '../../canonical/translation';
import type { ProviderAdapter } from '../provider-types';
import { createCozeStreamDecoder } from './coze-stream-decoder';
import { buildCozeChatRequest } from './convert-to-coze-request';
import { readCozeError } from './read-coze-error';
import { readCozeResponse } from './read-coze-response';

export { CozeReportedError } from './coze-reported-error';
export { DEFAULT_COZE_USER_ID, findCozeBotId } from './convert-to-coze-request';

/**
 * Canonical chat to and from Coze's chat v3 (https://www.coze.com/docs/developer_guides/chat_v3): the model
 * name is the bot id, the channel's user id field the user_id. Always streamed upstream; a non-stream
 * client's answer is collected from the stream.
 */
export const cozeTranslator: ChatTranslator = {
  buildRequest: buildCozeChatRequest,
  readResponse: readCozeResponse,
  createStreamDecoder: createCozeStreamDecoder,
};

/** A Coze error answer (non-2xx), with the kind of failure it is. */
export function readError(body: Buffer, status: number): UpstreamErrorDetails {
  return readCozeError(body, status);
}

/**
 * Coze bots, chat only. No client speaks Coze's protocol: 'openai-chat' without a pass-through lane sends
 * every client through the translator.
 */
export const cozeAdapter: ProviderAdapter = {
  wireFormat: 'coze',
  protocol: 'openai-chat',
  translator: cozeTranslator,
  readError,
};
