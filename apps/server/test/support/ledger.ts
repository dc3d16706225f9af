import { LogType } from '@gatehouse/shared';
import type { Db } from '../../src/db/database';

/** What the ledger says of one user and one key: both used quotas and the consumption logs that should equal them. */
export async function readLedger(db: Db, userId: number, tokenId: number) {
  const user = await db
    .selectFrom('users')
    .select('used_quota')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const token = await db
    .selectFrom('tokens')
    .select('used_quota')
    .where('id', '=', tokenId)
    .executeTakeFirstOrThrow();
  const logs = await db
    .selectFrom('logs')
    .select('quota')
    .where('user_id', '=', userId)
    .where('type', '=', LogType.consume)
    .execute();
  return {
    userUsed: Number(user.used_quota),
    tokenUsed: Number(token.used_quota),
    logged: logs.reduce((sum, log) => sum + Number(log.quota), 0),
    logs: logs.length,
  };
}
