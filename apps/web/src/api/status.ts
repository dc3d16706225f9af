import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ServerStatus } from '@gatehouse/shared';
import i18n from '../i18n/i18n';
import { api } from './client';
import { readStoredJson, StorageKey, writeStoredJson } from './storage';
import { showError } from './toast';

/** Branding and display settings are kept in the browser so the next visit paints at once. */
export function storeStatus(status: ServerStatus): void {
  writeStoredJson(StorageKey.status, status);
  localStorage.setItem(StorageKey.systemName, status.system_name ?? '');
  localStorage.setItem(StorageKey.logo, status.logo ?? '');
  localStorage.setItem(StorageKey.footerHtml, status.footer_html ?? '');
  localStorage.setItem(StorageKey.quotaPerUnit, String(status.quota_per_unit ?? ''));
  localStorage.setItem(StorageKey.displayInCurrency, String(status.display_in_currency ?? false));
  localStorage.setItem(StorageKey.chatLink, status.chat_link ?? '');
}

export async function getStatus(): Promise<ServerStatus> {
  try {
    const status = await api.get<ServerStatus>('/api/status', { quiet: true });
    storeStatus(status);
    return status;
  } catch (error) {
    showError(i18n.t('common.unableToConnect'));
    throw error;
  }
}

export const statusQueryOptions = () =>
  queryOptions({ queryKey: ['status'], queryFn: getStatus, staleTime: 5 * 60_000 });

/** The server status: the fresh answer once loaded, the stored one until then (null on a first visit). */
export function useStatus(): ServerStatus | null {
  const { data } = useQuery(statusQueryOptions());
  return data ?? readStoredJson<ServerStatus>(StorageKey.status);
}

export interface Branding {
  systemName: string;
  logo: string;
  chatLink: string;
}

export function useBranding(): Branding {
  const status = useStatus();
  return {
    systemName:
      status?.system_name ||
      localStorage.getItem(StorageKey.systemName) ||
      i18n.t('common.defaultSystemName'),
    logo: status?.logo || localStorage.getItem(StorageKey.logo) || '/logo.svg',
    chatLink: status?.chat_link ?? localStorage.getItem(StorageKey.chatLink) ?? '',
  };
}
