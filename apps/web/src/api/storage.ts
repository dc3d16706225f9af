/** The browser storage keys the console uses; other code never spells a key itself. */
export const StorageKey = {
  user: 'user',
  status: 'status',
  systemName: 'system_name',
  logo: 'logo',
  footerHtml: 'footer_html',
  quotaPerUnit: 'quota_per_unit',
  displayInCurrency: 'display_in_currency',
  chatLink: 'chat_link',
  aff: 'aff',
  channelModels: 'channel_models',
} as const;
export type StorageKeyName = (typeof StorageKey)[keyof typeof StorageKey];

/** A stored JSON value, or null when it is missing or was corrupted by hand. */
export function readStoredJson<T>(key: StorageKeyName): T | null {
  const raw = localStorage.getItem(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export function writeStoredJson(key: StorageKeyName, value: unknown): void {
  localStorage.setItem(key, JSON.stringify(value));
}
