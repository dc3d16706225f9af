import type { ChatCompletion } from '../../canonical/chat';
import { convertToChatUsage } from '../../canonical/convert-token-usage';
import { UpstreamFormatError, type ChatAnswer } from '../../canonical/translation';
import type { DeepLTranslateResponse } from './deepl-wire-types';
import { convertDeepLUsage } from './convert-deepl-usage';

export function parseDeepLResponse(body: Buffer): DeepLTranslateResponse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new UpstreamFormatError('DeepL answered a translation with something that is not JSON');
  }
  const translations = (parsed as { translations?: unknown } | null)?.translations;
  if (!Array.isArray(translations) || translations.some((item) => typeof item?.text !== 'string')) {
    throw new UpstreamFormatError('DeepL answered a translation without translations');
  }
  return parsed as DeepLTranslateResponse;
}

/** A DeepL answer as a chat completion whose content is the translation. */
export function readDeepLResponse(body: Buffer): ChatAnswer {
  const answer = parseDeepLResponse(body);
  const usage = convertDeepLUsage(answer, null);
  const completion: ChatCompletion = {
    id: `deepl-${Date.now().toString(36)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: '',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: answer.translations.map((item) => item.text).join('\n') },
        finish_reason: 'stop',
      },
    ],
    ...(usage ? { usage: convertToChatUsage(usage) } : {}),
  };
  return { completion, usage };
}
