import type { FastifyBaseLogger } from 'fastify';
import type { QuotaHolder } from '../../src/billing/quota-reservation';
import type { Db } from '../../src/db/database';
import { SettlementLedger } from '../../src/billing/settlement-ledger';

export type SeededHolder = QuotaHolder & { channelId: number };

/**
 * A user with `quota` (1,000 unless told), a key of theirs with `remainQuota` (the user's quota unless told)
 * and a channel, named uniquely: what a reservation holds. Looked up by name after each insert, so it works
 * on every database (PostgreSQL answers no insert id).
 */
export async function seedQuotaHolder(
  db: Db,
  { quota = 1000, remainQuota = quota }: { quota?: number; remainQuota?: number } = {},
): Promise<SeededHolder & { username: string }> {
  const suffix = Math.random().toString(36).slice(2, 10);
  const username = `u${suffix}`;
  await db
    .insertInto('users')
    .values({ username, password: 'x', aff_code: suffix, quota, created_at: 0 })
    .execute();
  const user = await db
    .selectFrom('users')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('tokens')
    .values({ user_id: user.id, key: `k${suffix}`, name: 'ledger key', remain_quota: remainQuota })
    .execute();
  const token = await db
    .selectFrom('tokens')
    .select('id')
    .where('key', '=', `k${suffix}`)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('channels')
    .values({ key: 'x', name: `c${suffix}` })
    .execute();
  const channel = await db
    .selectFrom('channels')
    .select('id')
    .where('name', '=', `c${suffix}`)
    .executeTakeFirstOrThrow();
  return { userId: user.id, tokenId: token.id, channelId: channel.id, isUnlimitedToken: false, username };
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
