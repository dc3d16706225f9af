import { describe, expect, it } from 'vitest';
import { findDeepLTargetLanguage } from './find-deepl-target-language';

describe('the target language of a DeepL model name', () => {
  it.each([
    ['deepl-zh', 'ZH'],
    ['deepl-ZH', 'ZH'],
    ['deepl-en-us', 'EN-US'],
    ['deepl-EN-GB', 'EN-GB'],
    ['DeepL-pt-br', 'PT-BR'],
    ['deepl-zh-hans', 'ZH-HANS'],
    ['deepl', 'ZH'],
    ['translator', 'ZH'],
  ])('%s → %s', (model, language) => {
    expect(findDeepLTargetLanguage(model)).toBe(language);
  });
});
