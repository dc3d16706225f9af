import { z } from 'zod';
import { queryPagingNumber, queryTimestamp } from './query-schemas';

/** What an audit entry is about. */
export const auditTargetTypes = ['user', 'token', 'channel', 'option', 'redemption', 'log'] as const;
export type AuditTargetType = (typeof auditTargetTypes)[number];

/** Every action the audit log records, `<target type>.<verb>`. */
export const auditActions = [
  'user.create',
  'user.update',
  'user.promote',
  'user.demote',
  'user.enable',
  'user.disable',
  'user.delete',
  'user.two_factor_reset',
  'token.create',
  'token.update',
  'token.enable',
  'token.disable',
  'token.delete',
  'channel.create',
  'channel.update',
  'channel.enable',
  'channel.disable',
  'channel.delete',
  'option.update',
  'redemption.create',
  'redemption.update',
  'redemption.enable',
  'redemption.disable',
  'redemption.delete',
  'log.clear',
] as const;
export type AuditAction = (typeof auditActions)[number];

/** The actor name of changes nobody asked for (channel health disabling or enabling a channel). */
export const AUDIT_SYSTEM_ACTOR = 'system';

export type AuditValue = string | number | boolean | null;

/**
 * One changed field. A secret field (a key, a password, a secret option …) never carries its values: it says
 * `masked: true`, and the console shows "changed".
 */
export type AuditChange =
  { field: string; before: AuditValue; after: AuditValue; masked?: false } | { field: string; masked: true };

export interface AuditEntry {
  id: number;
  created_at: number;
  /** 0 for the system */
  actor_id: number;
  /** the username, or "system" */
  actor_name: string;
  /** '' for the system */
  ip: string;
  action: string;
  target_type: string;
  /** the row id as text, or the option's key */
  target_id: string;
  /** a readable name of the target when it has one (username, channel or key name) */
  target_name: string;
  changes: AuditChange[];
}

const oneOf = <const Values extends readonly string[]>(values: Values, message: string) =>
  z
    .string({ error: 'query parameters must be text' })
    .optional()
    .transform((value) => (value ?? '').trim())
    .refine((value) => value === '' || (values as readonly string[]).includes(value), {
      message,
    });

const boundedText = (name: string, maximum: number) =>
  z
    .string({ error: 'query parameters must be text' })
    .optional()
    .transform((value) => (value ?? '').trim())
    .refine((value) => value.length <= maximum, { message: `${name} must be at most ${maximum} characters` });

/** GET /api/audit: pages newest first; every filter is optional and exact (`start`/`end` in seconds). */
export const auditQuerySchema = z.object({
  p: queryPagingNumber('p'),
  size: queryPagingNumber('size'),
  actor: boundedText('actor', 64),
  action: oneOf(
    auditActions,
    'action must be one of the audit actions, such as user.update or channel.delete',
  ),
  target_type: oneOf(auditTargetTypes, `target_type must be one of ${auditTargetTypes.join(', ')}`),
  target_id: boundedText('target_id', 128),
  start: queryTimestamp('start'),
  end: queryTimestamp('end'),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;
