import dayjs from 'dayjs';
import type { QueryParams } from '../../api/client';

export const AUDIT_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

export interface AuditFilters {
  actor: string;
  /** '' = every action */
  action: string;
  /** '' = every kind of target */
  targetType: string;
  targetId: string;
  /** 'YYYY-MM-DD HH:mm:ss' or null for no bound */
  start: string | null;
  end: string | null;
}

export const emptyAuditFilters: AuditFilters = {
  actor: '',
  action: '',
  targetType: '',
  targetId: '',
  start: null,
  end: null,
};

const toSeconds = (text: string | null): number | undefined => {
  if (!text) return undefined;
  const parsed = dayjs(text);
  return parsed.isValid() ? Math.max(0, parsed.unix()) : undefined;
};

/** The audit list's query; blank fields are left out. */
export function toAuditQueryParams(filters: AuditFilters): QueryParams {
  return {
    actor: filters.actor.trim() || undefined,
    action: filters.action || undefined,
    target_type: filters.targetType || undefined,
    target_id: filters.targetId.trim() || undefined,
    start: toSeconds(filters.start),
    end: toSeconds(filters.end),
  };
}
