import {
  Role,
  UserStatus,
  isRootRole,
  type ManageUserAction,
  type ManageUserResult,
} from '@gatehouse/shared';
import type { AppContext } from '../context';
import type { UserRow, UserUpdate } from '../db/schema';
import { fail } from '../http/envelope';
import { recordManageLog } from '../logs/log-writer';
import { recordAudit, type AuditActor } from '../audit/audit-log';
import { userChanges } from '../audit/audit-subjects';
import { deleteUserAccount } from './delete-user';
import { canManageUser } from './user-access';
import { findUserByUsername } from './user-repository';

interface ManageOutcome {
  update?: UserUpdate;
  /** the management log line, said of the target user */
  description: string;
}

function planAction(actor: UserRow, target: UserRow, action: ManageUserAction): ManageOutcome {
  switch (action) {
    case 'promote':
      if (!isRootRole(actor.role)) fail('Only the super admin can promote users to admin');
      if (target.role >= Role.admin) fail('This user is already an admin');
      // A new role starts with a new sign-in: every session of the user ends (a new session version).
      return {
        update: { role: Role.admin, session_version: target.session_version + 1 },
        description: 'promoted the user to admin',
      };
    case 'demote':
      if (target.role < Role.admin) fail('This user is already a normal user');
      return {
        update: { role: Role.common, session_version: target.session_version + 1 },
        description: 'demoted the user to normal user',
      };
    case 'disable':
      // A new session version and no access token: every session and script of the user stops at once.
      return {
        update: {
          status: UserStatus.disabled,
          session_version: target.session_version + 1,
          access_token: null,
        },
        description: 'disabled the user',
      };
    case 'enable':
      return { update: { status: UserStatus.enabled }, description: 'enabled the user' };
    case 'delete':
      return { description: 'deleted the user' };
  }
}

/**
 * Promote, demote, disable, enable or delete a user by name. Nobody acts on the super admin, and an admin acts
 * only on users of a lower role. Answers the new status and role.
 */
export async function manageUser(
  context: AppContext,
  actor: UserRow,
  username: string,
  action: ManageUserAction,
  audit: AuditActor,
): Promise<ManageUserResult> {
  const { db } = context;
  const target = await findUserByUsername(db, username);
  if (!target) fail('User does not exist');
  if (isRootRole(target.role)) fail('The super admin cannot be promoted, demoted, disabled or deleted');
  if (!canManageUser(actor, target)) fail('You can only manage users whose role is lower than yours');

  const { update, description } = planAction(actor, target, action);
  if (action === 'delete') {
    await deleteUserAccount(db, target.id);
  } else if (update) {
    // The role condition makes a concurrent promotion of the target (by root) win over this admin's action.
    const result = await db
      .updateTable('users')
      .set(update)
      .where('id', '=', target.id)
      .where('role', '<', actor.role)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) fail('User does not exist');
  }
  await recordManageLog(db, target.id, target.username, `Admin ${actor.username} ${description}`);
  await recordAudit(db, audit, {
    action: `user.${action}`,
    target: { type: 'user', id: target.id, name: target.username },
    changes: userChanges(target, action === 'delete' ? null : { ...target, ...update }),
  });
  context.events.emit('userChanged', target.id);
  return {
    status: update?.status ?? target.status,
    role: update?.role ?? target.role,
  };
}
