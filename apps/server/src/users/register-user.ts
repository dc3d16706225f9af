import { Role, UserStatus, formatQuota, type RegisterRequest } from '@gatehouse/shared';
import type { AppContext } from '../context';
import type { UserRow } from '../db/schema';
import { hashPassword } from '../auth/password';
import { fail } from '../http/envelope';
import { recordSystemLog } from '../logs/log-writer';
import { findUserByAffCode, findUserByUsername, insertUser } from './user-repository';

/** A quota in the console's unit for messages: cents, or six decimals for an amount two would show as 0. */
export function describeQuota(context: AppContext, quota: number): string {
  const display = {
    displayInCurrency: context.options.getBoolean('DisplayInCurrencyEnabled'),
    quotaPerUnit: context.options.getNumber('QuotaPerUnit'),
  };
  const text = formatQuota(quota, display);
  return quota !== 0 && /^\$-?0\.00$/.test(text) ? formatQuota(quota, display, 6) : text;
}

/**
 * Registration by password (the console's register page and admin add-user share the rules).
 * E-mail ownership is checked by the caller when verification is on.
 */
export async function createUserAccount(
  context: AppContext,
  input: Pick<RegisterRequest, 'username' | 'password' | 'aff_code'> & {
    display_name?: string;
    email?: string;
  },
): Promise<UserRow> {
  const { db, options } = context;
  if (await findUserByUsername(db, input.username)) fail('Username is already taken');
  const inviter = input.aff_code ? await findUserByAffCode(db, input.aff_code) : undefined;
  const inviteeBonus = inviter ? options.getNumber('QuotaForInvitee') : 0;
  const user = await insertUser(db, {
    username: input.username,
    password: await hashPassword(input.password),
    display_name: input.display_name || input.username,
    email: input.email ?? '',
    role: Role.common,
    status: UserStatus.enabled,
    quota: options.getNumber('QuotaForNewUser') + inviteeBonus,
    inviter_id: inviter?.id ?? 0,
  }).catch((error: unknown) => {
    // Two registrations of one name at once: the unique index decides.
    if (/unique|duplicate/i.test(String(error))) fail('Username is already taken');
    throw error;
  });
  const newUserQuota = options.getNumber('QuotaForNewUser');
  if (newUserQuota > 0) {
    await recordSystemLog(
      db,
      user.id,
      user.username,
      `New user registration gift: ${describeQuota(context, newUserQuota)}`,
    );
  }
  if (inviter) {
    if (inviteeBonus > 0) {
      await recordSystemLog(
        db,
        user.id,
        user.username,
        `Invite code bonus: ${describeQuota(context, inviteeBonus)}`,
      );
    }
    const inviterBonus = options.getNumber('QuotaForInviter');
    if (inviterBonus > 0) {
      await db
        .updateTable('users')
        .set((set) => ({ quota: set('quota', '+', inviterBonus) }))
        .where('id', '=', inviter.id)
        .execute();
      await recordSystemLog(
        db,
        inviter.id,
        inviter.username,
        `Invited user ${user.username}: ${describeQuota(context, inviterBonus)}`,
      );
    }
  }
  return user;
}
