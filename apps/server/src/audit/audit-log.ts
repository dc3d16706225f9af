import {
  AUDIT_SYSTEM_ACTOR,
  nowSeconds,
  type AuditAction,
  type AuditChange,
  type AuditTargetType,
} from '@gatehouse/shared';
import type { Db } from '../db/database';

/** Who made a change: a signed-in user and the address the request came from, or the system. */
export interface AuditActor {
  id: number;
  name: string;
  ip: string;
}

/** Channel health disabling or enabling a channel on its own. */
export const SYSTEM_AUDIT_ACTOR: AuditActor = { id: 0, name: AUDIT_SYSTEM_ACTOR, ip: '' };

export interface AuditRecord {
  action: AuditAction;
  target: { type: AuditTargetType; id: number | string; name?: string };
  /** from `audit-subjects.ts` (secrets masked there) */
  changes: AuditChange[];
}

const MAX_TARGET_NAME = 255;
/** Entries per INSERT: a batch of thousands of channels stays under SQLite's bound-parameter limit. */
const INSERT_CHUNK = 500;

/**
 * Writes audit entries. Pass the transaction of the change when there is one, so the entry and the change commit
 * together; otherwise call this only after the change succeeded. An entry without any changed field is not
 * written: saving a form unchanged changes nothing.
 */
export async function recordAudit(
  db: Db,
  actor: AuditActor,
  records: AuditRecord | readonly AuditRecord[],
): Promise<void> {
  const list = (Array.isArray(records) ? records : [records]) as readonly AuditRecord[];
  const now = nowSeconds();
  const rows = list
    .filter((record) => record.changes.length > 0)
    .map((record) => ({
      created_at: now,
      actor_id: actor.id,
      actor_name: actor.name,
      ip: actor.ip.slice(0, 64),
      action: record.action,
      target_type: record.target.type,
      target_id: String(record.target.id),
      target_name: (record.target.name ?? '').slice(0, MAX_TARGET_NAME),
      changes: JSON.stringify(record.changes),
    }));
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    await db
      .insertInto('audit_log')
      .values(rows.slice(start, start + INSERT_CHUNK))
      .execute();
  }
}
