import type { AuditChange, AuditValue } from '@gatehouse/shared';

/** A target's fields as the audit log compares them: plain values, one level deep. */
export type AuditFields = Record<string, AuditValue>;

/** Objects and arrays are compared and shown as their JSON text. */
export function toAuditValue(value: unknown): AuditValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return Number(value);
  return JSON.stringify(value);
}

const isEmpty = (value: AuditValue): boolean =>
  value === null || value === '' || value === 0 || value === false;

/** Databases answer bigint columns as text or numbers: `100` and `'100'` are the same value here. */
const isSame = (before: AuditValue, after: AuditValue): boolean =>
  before === after || (before !== null && after !== null && String(before) === String(after));

/**
 * The fields that differ between two states of a target, in the order the fields are listed. `null` stands for
 * "did not exist": a created target lists its non-empty fields, a deleted one what it held. A secret field is
 * never written with its values, only as changed.
 */
export function diffAuditFields(
  before: AuditFields | null,
  after: AuditFields | null,
  secretFields: readonly string[] = [],
): AuditChange[] {
  const names = [...new Set([...Object.keys(after ?? {}), ...Object.keys(before ?? {})])];
  const changes: AuditChange[] = [];
  for (const field of names) {
    const old = before ? (before[field] ?? null) : null;
    const current = after ? (after[field] ?? null) : null;
    if (isSame(old, current)) continue;
    // Creating or deleting a target: fields it had empty, zero or off say nothing.
    if ((before === null || after === null) && isEmpty(old) && isEmpty(current)) continue;
    changes.push(
      secretFields.includes(field) ? { field, masked: true } : { field, before: old, after: current },
    );
  }
  return changes;
}
