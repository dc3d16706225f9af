import {
  ChannelType,
  DEFAULT_AZURE_API_VERSION,
  composeChannelKey,
  findChannelType,
  parseChannelConfig,
  secretChannelConfigFields,
  type ChannelConfig,
} from '@gatehouse/shared';

/**
 * The upstream address of a channel: its own base URL, else its type's default. Stored base URLs stay empty
 * when the admin left them blank, so a changed default reaches every such channel.
 */
export function resolveBaseUrl(channel: { type: number; base_url: string }): string {
  return channel.base_url || findChannelType(channel.type)?.defaultBaseUrl || '';
}

/** Azure's `other` (API version) defaults to 2024-03-01-preview. */
export function defaultOther(type: number, other: string): string {
  return type === ChannelType.azure && other === '' ? DEFAULT_AZURE_API_VERSION : other;
}

/** The key to store when the form's key is blank: composed from the special fields (33, 42), else ''. */
export function defaultKey(type: number, configText: string): string {
  const config = parseChannelConfig(configText);
  return config ? composeChannelKey(type, config) : '';
}

/** The config to store on edit: a blank credential field keeps the stored one (the form never shows it). */
export function mergeConfig(storedText: string, incomingText: string): string {
  const incoming = parseChannelConfig(incomingText) ?? {};
  const stored = parseChannelConfig(storedText) ?? {};
  const merged: ChannelConfig = { ...incoming };
  for (const field of secretChannelConfigFields) {
    if (!merged[field] && stored[field]) merged[field] = stored[field];
  }
  return Object.keys(merged).length === 0 ? '' : JSON.stringify(merged);
}

/** The config as answered to anyone but root: credentials removed. */
export function redactConfig(configText: string): string {
  const config = parseChannelConfig(configText);
  if (!config) return '';
  const visible: Record<string, string> = { ...config };
  for (const field of secretChannelConfigFields) delete visible[field];
  return Object.keys(visible).length === 0 ? '' : JSON.stringify(visible);
}
