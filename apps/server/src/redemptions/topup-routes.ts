import type { FastifyInstance } from 'fastify';
import { LogType, RedemptionStatus, nowSeconds, topupRequestSchema } from '@gatehouse/shared';
import type { AppContext } from '../context';
import type { Db } from '../db/database';
import { createGuards, currentUser } from '../http/auth';
import { HttpError, fail, ok } from '../http/envelope';
import { parseWith } from '../http/validate';
import { recordLog } from '../logs/log-writer';
import { describeQuota } from '../users/register-user';
import { findRedemptionByKey } from './redemption-repository';
import { createMemoryTopupLimiter, type TopupLimiter } from './topup-limiter';

type Redeemed = { ok: true; quota: number } | { ok: false; message: string };

/** Why a code could not be redeemed, read after the conditional update found nothing to take. */
async function describeRefusal(db: Db, key: string): Promise<string> {
  const row = await findRedemptionByKey(db, key);
  if (!row) return 'Invalid redemption code';
  if (row.status === RedemptionStatus.used) return 'This redemption code has already been used';
  if (row.status === RedemptionStatus.disabled) return 'This redemption code is disabled';
  return 'This redemption code has no quota';
}

/**
 * Takes the code and credits the user in one transaction. The conditional update is the lock: of any number
 * of parallel attempts exactly one changes the row, and only that one credits the quota and writes the log.
 */
async function redeemCode(
  context: AppContext,
  user: { id: number; username: string },
  key: string,
): Promise<Redeemed> {
  const now = nowSeconds();
  return context.db.transaction().execute(async (transaction) => {
    const taken = await transaction
      .updateTable('redemptions')
      .set({ status: RedemptionStatus.used, used_user_id: user.id, redeemed_time: now })
      .where('key', '=', key)
      .where('status', '=', RedemptionStatus.unused)
      .where('quota', '>', 0)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) {
      return { ok: false, message: await describeRefusal(transaction, key) };
    }
    const code = await transaction
      .selectFrom('redemptions')
      .select(['id', 'quota'])
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    const quota = Number(code.quota);
    await transaction
      .updateTable('users')
      .set((set) => ({ quota: set('quota', '+', quota) }))
      .where('id', '=', user.id)
      .execute();
    await recordLog(transaction, {
      user_id: user.id,
      username: user.username,
      type: LogType.topup,
      quota,
      content: `Redeemed ${describeQuota(context, quota)} with redemption code #${code.id}`,
      created_at: now,
    });
    return { ok: true, quota };
  });
}

/** POST /api/user/topup {key}: data is the quota added. Failed attempts are limited per user. */
export function registerTopupRoutes(
  app: FastifyInstance,
  context: AppContext,
  limiter: TopupLimiter = createMemoryTopupLimiter(),
): void {
  const guards = createGuards(context);

  app.post('/api/user/topup', { preHandler: guards.user }, async (request, reply) => {
    const user = currentUser(request);
    const { key } = parseWith(topupRequestSchema, request.body);
    const retryAfter = await limiter.retryAfterSeconds(user.id);
    if (retryAfter > 0) {
      reply.header('Retry-After', String(retryAfter));
      throw new HttpError(429, 'Too many failed redemption attempts, please try again later');
    }
    const result = await redeemCode(context, user, key);
    if (!result.ok) {
      await limiter.recordFailure(user.id);
      fail(result.message);
    }
    context.events.emit('userChanged', user.id);
    return ok(result.quota);
  });
}
