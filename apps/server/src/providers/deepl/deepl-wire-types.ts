/** DeepL's text translation API (https://developers.deepl.com/api-reference/translate). */
export const DEEPL = 'DeepL';

export interface DeepLTranslateRequest {
  text: string[];
  target_lang: string;
  /** text that informs the translation without being translated (the chat's system prompt) */
  context?: string;
  /** asks for billed_characters in the answer: what DeepL charges, and what the gateway bills */
  show_billed_characters: true;
}

export interface DeepLTranslation {
  detected_source_language?: string;
  text: string;
  billed_characters?: number;
}

export interface DeepLTranslateResponse {
  translations: DeepLTranslation[];
}
