import type { FastifyBaseLogger } from 'fastify';
import type { QuotaHolder } from '../../src/billing/quota-reservation';
import type { Db } from '../../src/db/database';
import { SettlementLedger } from '../../src/billing/settlement-ledger';

export type SeededHolder = QuotaHolder & { channelId: number };

/** A user with 1,000 quota, a key of theirs with 1,000 and a channel, named uniquely: what a reservation holds. */
export async function seedQuotaHolder(db: Db): Promise<SeededHolder> {
  const suffix = Math.random().toString(36).slice(2, 10);
  const user = await db
    .insertInto('users')
    .values({ username: `u${suffix}`, password: 'x', aff_code: suffix, quota: 1000, created_at: 0 })
    .executeTakeFirstOrThrow();
  const token = await db
    .insertInto('tokens')
    .values({ user_id: Number(user.insertId), key: `k${suffix}`, name: 'ledger key', remain_quota: 1000 })
    .executeTakeFirstOrThrow();
  const channel = await db
    .insertInto('channels')
    .values({ key: 'x', name: `c${suffix}` })
    .executeTakeFirstOrThrow();
  return {
    userId: Number(user.insertId),
    tokenId: Number(token.insertId),
    channelId: Number(channel.insertId),
    isUnlimitedToken: false,
  };
}

/** The holder's user quota and key remaining quota now. */
export async function holderBalances(db: Db, holder: QuotaHolder): Promise<{ user: number; token: number }> {
  const user = await db
    .selectFrom('users')
    .select('quota')
    .where('id', '=', holder.userId)
    .executeTakeFirstOrThrow();
  const token = await db
    .selectFrom('tokens')
    .select('remain_quota')
    .where('id', '=', holder.tokenId)
    .executeTakeFirstOrThrow();
  return { user: Number(user.quota), token: Number(token.remain_quota) };
}

/** A logger that says nothing, for ledgers and keepers under test. */
export const silentLog = {
  error: () => undefined,
  warn: () => undefined,
  info: () => undefined,
} as unknown as FastifyBaseLogger;

/** A settlement ledger without quota reminders (threshold 0), logging nothing. */
export function quietLedger(db: Db): SettlementLedger {
  return new SettlementLedger(
    db,
    silentLog,
    () => 0,
    () => undefined,
  );
}
