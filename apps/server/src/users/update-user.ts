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

/** What the edit changes on the user as it was read. */
function planUpdate(target: UserRow, input: UpdateUserInput, passwordHash: string | undefined): UserUpdate {
  const update: UserUpdate = {};
  if (input.display_name !== undefined) update.display_name = input.display_name || target.username;
  if (passwordHash) {
    update.password = passwordHash;
    update.session_version = target.session_version + 1;
  }
  if (input.quota !== undefined && input.quota !== Number(target.quota)) update.quota = input.quota;
  if (input.group !== undefined && input.group !== target.group) update.group = input.group;
  const limits = { ...readLimitFields(target), ...definedLimits(input) };
  const refusal = findBudgetRefusal(limits);
  if (refusal) fail(refusal);
  for (const field of LIMIT_FIELDS) {
    if (limits[field] !== readLimitFields(target)[field]) Object.assign(update, { [field]: limits[field] });
  }
  return update;
}

/** Tries of an edit whose user changed between its read and its write. */
const EDIT_TRIES = 3;

/**
 * Reads, checks and writes the user, the write only on the user as read and checked: one promoted meanwhile
 * is checked again, and a balance a request spent meanwhile is the one the quota log names.
 */
async function writeEdit(
  context: AppContext,
  actor: UserRow,
  input: UpdateUserInput,
): Promise<{ target: UserRow; update: UserUpdate }> {
  const { db } = context;
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  for (let tries = 1; ; tries += 1) {
    const target = await findUserById(db, input.id);
    if (!target) fail('User does not exist');
    assertCanEditUser(actor, target);
    const update = planUpdate(target, input, passwordHash);
    if (Object.keys(update).length === 0) return { target, update };
    let write = db
      .updateTable('users')
      .set(update)
      .where('id', '=', target.id)
      .where('role', '=', target.role);
    if (update.quota !== undefined) write = write.where('quota', '=', target.quota);
    const result = await write.executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) return { target, update };
    if (tries === EDIT_TRIES) fail('The user changed while being saved; please try again');
  }
}

/**
 * The admin edit of a user: display name, password (blank keeps it), quota, group and limits (rate limits,
 * budget). A new password ends the user's sessions; a quota change is written to the user's management log;
 * every change to the audit log.
 */
export async function updateUserByAdmin(
  context: AppContext,
  actor: UserRow,
  input: UpdateUserInput,
  audit: AuditActor,
): Promise<UserRow> {
  const { db } = context;
  const { target, update } = await writeEdit(context, actor, input);
  if (update.quota !== undefined) {
    await recordManageLog(
      db,
      target.id,
      target.username,
      `Admin ${actor.username} changed the quota from ${describeQuota(context, Number(target.quota))} to ${describeQuota(context, update.quota)}`,
    );
  }
  if (Object.keys(update).length > 0) context.events.emit('userChanged', target.id);
  const updated = await findUserById(db, target.id);
  if (!updated) fail('User does not exist');
  await recordAudit(db, audit, {
    action: 'user.update',
    target: { type: 'user', id: target.id, name: target.username },
    changes: userChanges(target, updated),
  });
  return updated;
}
