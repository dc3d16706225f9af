import { expect } from 'vitest';
import { LogType } from '@gatehouse/shared';
import type { Db } from '../../src/db/database';
import type { SeededKey } from './gateway-fleet';

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

/**
 * The key's ledger once the server stopped: the user's and the key's balance drops equal their used quotas
 * and the sum of the consumption logs, and no reservation is left. Answers that sum and the log count.
 */
export async function settledLedger(db: Db, seeded: SeededKey): Promise<{ logged: number; logs: number }> {
  const ledger = await readLedger(db, seeded.userId, seeded.tokenId);
  const balances = await db
    .selectFrom('users')
    .innerJoin('tokens', 'tokens.user_id', 'users.id')
    .select(['users.quota as userQuota', 'tokens.remain_quota as keyQuota'])
    .where('tokens.id', '=', seeded.tokenId)
    .executeTakeFirstOrThrow();
  // seedUserWithKey gives both 10 000 000.
  expect({
    userDrop: 10_000_000 - Number(balances.userQuota),
    keyDrop: 10_000_000 - Number(balances.keyQuota),
    userUsed: ledger.userUsed,
    keyUsed: ledger.tokenUsed,
  }).toEqual({
    userDrop: ledger.logged,
    keyDrop: ledger.logged,
    userUsed: ledger.logged,
    keyUsed: ledger.logged,
  });
  expect(await db.selectFrom('quota_reservations').select('id').execute()).toEqual([]);
  return { logged: ledger.logged, logs: ledger.logs };
}
