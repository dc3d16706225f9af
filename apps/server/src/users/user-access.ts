import { isRootRole } from '@gatehouse/shared';
import type { UserRow } from '../db/schema';
import { fail } from '../http/envelope';

type Actor = Pick<UserRow, 'id' | 'role'>;
type Target = Pick<UserRow, 'id' | 'role'>;

/** An admin acts only on users of a lower role than its own (issue 3). */
export function canManageUser(actor: Actor, target: Target): boolean {
  return actor.role > target.role;
}

/** Viewing and editing also let root open its own record (root has no one above it to do that). */
export function canEditUser(actor: Actor, target: Target): boolean {
  return canManageUser(actor, target) || (actor.id === target.id && isRootRole(actor.role));
}

export function assertCanEditUser(actor: Actor, target: Target): void {
  if (!canEditUser(actor, target)) {
    fail('You can only view or edit users whose role is lower than yours');
  }
}
