/** The language DeepL translates into when a model name names none, as one-api did. */
export const DEFAULT_DEEPL_TARGET_LANGUAGE = 'ZH';

/**
 * The target language a model name asks for: what follows `deepl-`, in DeepL's upper-case codes
 * (https://developers.deepl.com/docs/getting-started/supported-languages) — `deepl-zh` → ZH, `deepl-en-us`
 * → EN-US, `deepl-pt-br` → PT-BR. A bare `deepl` (or any name without the prefix and a language) asks for
 * DEFAULT_DEEPL_TARGET_LANGUAGE. DeepL itself refuses a code it does not know, with a 400 naming target_lang.
 */
export function findDeepLTargetLanguage(model: string): string {
  const match = /^deepl-(.+)$/i.exec(model.trim());
  return match ? match[1].toUpperCase() : DEFAULT_DEEPL_TARGET_LANGUAGE;
}
