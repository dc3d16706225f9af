import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { deepMerge, type MessageTree } from './deep-merge';

export const languages = ['en', 'zh'] as const;
export type Language = (typeof languages)[number];

export const LANGUAGE_STORAGE_KEY = 'language';

// One JSON file per area and language (en/auth.json, zh/auth.json …), merged into a single namespace so a
// feature adds its own file without touching anyone else's. Each file nests its keys under its area name.
const files = import.meta.glob<MessageTree>('./*/*.json', { eager: true, import: 'default' });

function loadMessages(language: Language): MessageTree {
  return Object.entries(files)
    .filter(([path]) => path.startsWith(`./${language}/`))
    .sort(([left], [right]) => left.localeCompare(right))
    .reduce<MessageTree>((merged, [, messages]) => deepMerge(merged, messages), {});
}

export function detectLanguage(): Language {
  const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
  if (stored === 'en' || stored === 'zh') return stored;
  return navigator.language.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

export function changeLanguage(language: Language): void {
  localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  void i18n.changeLanguage(language);
}

// Registered before init so the page's lang attribute (fonts, screen readers) matches from the first paint.
i18n.on('languageChanged', (language) => {
  document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
});

void i18n.use(initReactI18next).init({
  resources: {
    en: { translation: loadMessages('en') },
    zh: { translation: loadMessages('zh') },
  },
  lng: detectLanguage(),
  fallbackLng: 'en',
  // React escapes text already; translations never contain markup.
  interpolation: { escapeValue: false },
  returnNull: false,
});

export default i18n;
