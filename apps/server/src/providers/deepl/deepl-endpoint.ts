export const DEEPL_FREE_BASE_URL = 'https://api-free.deepl.com';
export const DEEPL_PRO_BASE_URL = 'https://api.deepl.com';

/** Free API keys end in `:fx` (https://developers.deepl.com/docs/getting-started/auth). */
export const isDeepLFreeKey = (key: string): boolean => key.trim().endsWith(':fx');

/**
 * Where a key's translations go. DeepL serves Free keys at api-free.deepl.com and Pro keys at api.deepl.com
 * only; a channel left at either of DeepL's own addresses (the console's default is the Free one) therefore
 * goes where its key belongs. Any other base URL (a proxy, a local stand-in) is used as it is.
 */
export function findDeepLBaseUrl(baseUrl: string, key: string): string {
  if (baseUrl !== DEEPL_FREE_BASE_URL && baseUrl !== DEEPL_PRO_BASE_URL && baseUrl !== '') return baseUrl;
  return isDeepLFreeKey(key) ? DEEPL_FREE_BASE_URL : DEEPL_PRO_BASE_URL;
}
