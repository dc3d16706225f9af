import type { Db } from '../db/database';

/**
 * Removes a user, its API keys and its two-factor sign-in in one transaction, so it vanishes from lists and logins at once.
 * Its log rows stay: they are the ledger of what it used.
 */
export async function deleteUserAccount(db: Db, userId: number): Promise<void> {
  await db.transaction().execute(async (transaction) => {
    await transaction.deleteFrom('tokens').where('user_id', '=', userId).execute();
    // Its two-factor secret and recovery codes go with it.
    await transaction.deleteFrom('two_factor').where('user_id', '=', userId).execute();
    await transaction.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
    await transaction.deleteFrom('two_factor_challenges').where('user_id', '=', userId).execute();
    await transaction.deleteFrom('users').where('id', '=', userId).execute();
  });
}
