import type { z } from 'zod';
import { findBudgetRefusal, type LimitFields, type updateUserRequestSchema } from '@gatehouse/shared';
import { readLimitFields } from '../limits/limit-fields';
import type { AppContext } from '../context';
import type { UserRow, UserUpdate } from '../db/schema';
import { hashPassword } from '../auth/password';
import { fail } from '../http/envelope';
import { recordManageLog } from '../logs/log-writer';
import { recordAudit, type AuditActor } from '../audit/audit-log';
import { userChanges } from '../audit/audit-subjects';
import { describeQuota } from './register-user';
import { assertCanEditUser } from './user-access';
import { findUserById } from './user-repository';

export type UpdateUserInput = z.output<typeof updateUserRequestSchema>;

const LIMIT_FIELDS = ['rpm_limit', 'tpm_limit', 'max_parallel_requests', 'budget', 'budget_period'] as const;

function definedLimits(input: UpdateUserInput): Partial<LimitFields> {
  return Object.fromEntries(
    LIMIT_FIELDS.filter((field) => input[field] !== undefined).map((field) => [field, input[field]]),
  );
}

/**
 * The admin edit of a user: display name, password (blank keeps it), quota, group and limits (rate limits,
 * budget). A new password ends the
 * user's sessions; a quota change is written to the user's management log; every change to the audit log.
 */
export async function updateUserByAdmin(
  context: AppContext,
  actor: UserRow,
  input: UpdateUserInput,
  audit: AuditActor,
): Promise<UserRow> {
  const { db } = context;
  const target = await findUserById(db, input.id);
  if (!target) fail('User does not exist');
  assertCanEditUser(actor, target);

  const update: UserUpdate = {};
  if (input.display_name !== undefined) update.display_name = input.display_name || target.username;
  if (input.password) {
    update.password = await hashPassword(input.password);
    update.session_version = target.session_version + 1;
  }
  const oldQuota = Number(target.quota);
  if (input.quota !== undefined && input.quota !== oldQuota) update.quota = input.quota;
  if (input.group !== undefined && input.group !== target.group) update.group = input.group;
  const limits = { ...readLimitFields(target), ...definedLimits(input) };
  const refusal = findBudgetRefusal(limits);
  if (refusal) fail(refusal);
  for (const field of LIMIT_FIELDS) {
    if (limits[field] !== readLimitFields(target)[field]) Object.assign(update, { [field]: limits[field] });
  }

  if (Object.keys(update).length > 0) {
    await db.updateTable('users').set(update).where('id', '=', target.id).execute();
    if (update.quota !== undefined) {
      await recordManageLog(
        db,
        target.id,
        target.username,
        `Admin ${actor.username} changed the quota from ${describeQuota(context, oldQuota)} to ${describeQuota(context, update.quota)}`,
      );
    }
    context.events.emit('userChanged', target.id);
  }
  const updated = await findUserById(db, target.id);
  if (!updated) fail('User does not exist');
  await recordAudit(db, audit, {
    action: 'user.update',
    target: { type: 'user', id: target.id, name: target.username },
    changes: userChanges(target, updated),
  });
  return updated;
}
