import type { TokenUsage } from '../../canonical/translation';
import type { DeepLTranslateResponse } from './deepl-wire-types';

/**
 * DeepL bills characters of the source text, not tokens (https://www.deepl.com/pro-api). The gateway bills
 * them as prompt tokens — one character, one token — and DeepL's models are priced per million characters,
 * so the charge is DeepL's. The count is DeepL's billed_characters (asked for with show_billed_characters),
 * else the source text's characters counted here. The translation itself is not billed: no completion tokens.
 */
export function convertDeepLUsage(
  answer: DeepLTranslateResponse,
  sourceText: string | null,
): TokenUsage | null {
  const billed = answer.translations
    .map((translation) => translation.billed_characters)
    .filter((count): count is number => typeof count === 'number' && count >= 0);
  if (billed.length > 0)
    return { promptTokens: billed.reduce((sum, count) => sum + count, 0), completionTokens: 0 };
  return sourceText === null ? null : { promptTokens: [...sourceText].length, completionTokens: 0 };
}
