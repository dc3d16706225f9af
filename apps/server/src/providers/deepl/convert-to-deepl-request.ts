import type { ChatMessage, ChatRequest } from '../../canonical/chat';
import {
  UnsupportedOptionError,
  type CanonicalChatInput,
  type UpstreamHttpRequest,
} from '../../canonical/translation';
import { findDeepLBaseUrl } from './deepl-endpoint';
import { DEEPL, type DeepLTranslateRequest } from './deepl-wire-types';
import { findDeepLTargetLanguage } from './find-deepl-target-language';

function textOf(message: ChatMessage): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/**
 * Translation served as chat, as one-api serves it: the text of the last user message is translated into
 * the model name's language; system and developer messages go along as DeepL's `context`, which informs
 * the translation without being translated. Earlier turns are not sent.
 */
export function convertToDeepLRequest(request: ChatRequest, upstreamModel: string): DeepLTranslateRequest {
  if ((request.n ?? 1) > 1) throw new UnsupportedOptionError(DEEPL, 'n > 1');
  if (request.tools?.some((tool) => tool.type === 'function'))
    throw new UnsupportedOptionError(DEEPL, 'tools');
  const last = [...request.messages].reverse().find((message) => message.role === 'user');
  // DeepL translates text only: an image or a file would be dropped without a word, so it is refused.
  if (Array.isArray(last?.content) && last.content.some((part) => part.type !== 'text'))
    throw new UnsupportedOptionError(DEEPL, 'images, audio or files', 'it translates text only');
  const text = last ? textOf(last) : '';
  if (text.trim() === '') {
    throw new UnsupportedOptionError(
      DEEPL,
      'a request without text to translate',
      'send the text as a user message',
    );
  }
  const context = request.messages
    .filter((message) => message.role === 'system' || message.role === 'developer')
    .map(textOf)
    .filter(Boolean)
    .join('\n');
  return {
    text: [text],
    target_lang: findDeepLTargetLanguage(upstreamModel),
    ...(context ? { context } : {}),
    show_billed_characters: true,
  };
}

/** POST {base}/v2/translate with the key as `DeepL-Auth-Key` (https://developers.deepl.com/docs/getting-started/auth). */
export function buildDeepLRequest(input: CanonicalChatInput): UpstreamHttpRequest {
  const { channel } = input;
  return {
    url: `${findDeepLBaseUrl(channel.baseUrl, channel.key)}/v2/translate`,
    headers: { authorization: `DeepL-Auth-Key ${channel.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(convertToDeepLRequest(input.request, input.upstreamModel)),
  };
}
