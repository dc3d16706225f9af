import type { Db } from '../db/database';
import type { UserRow } from '../db/schema';
import type { OptionStore } from '../options/option-store';
import { fail } from '../http/envelope';

/** With EmailDomainRestrictionEnabled, only addresses at a whitelisted domain may register or be bound. */
export function assertEmailDomainAllowed(options: OptionStore, email: string): void {
  if (!options.getBoolean('EmailDomainRestrictionEnabled')) return;
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  const allowed = options
    .get('EmailDomainWhitelist')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '');
  if (!allowed.includes(domain)) {
    fail(
      `The administrator allows only e-mail addresses at these domains: ${allowed.join(', ') || '(none)'}`,
    );
  }
}

/** Addresses are stored lower-case (see emailSchema), so equality finds them on every database. */
export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', email.toLowerCase())
    .where('email', '!=', '')
    .orderBy('id')
    .executeTakeFirst();
}

/**
 * Refuses an address another account already uses. Only called after the caller has proven, with a
 * mailed code, that the address is theirs, so the answer tells nothing to anyone else.
 */
export async function assertEmailAvailable(db: Db, email: string, ownerId = 0): Promise<void> {
  const holder = await findUserByEmail(db, email);
  if (holder && holder.id !== ownerId) fail('This e-mail address is already bound to another account');
}
