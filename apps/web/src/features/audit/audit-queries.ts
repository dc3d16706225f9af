import type { AuditEntry } from '@gatehouse/shared';
import { api, type QueryParams } from '../../api/client';

export const auditKeys = {
  all: ['audit'] as const,
  list: (params: QueryParams) => [...auditKeys.all, 'list', params] as const,
};

export const listAuditEntries = (params: QueryParams, page: number, signal?: AbortSignal) =>
  api.get<AuditEntry[]>('/api/audit', { params: { ...params, p: page }, signal });
