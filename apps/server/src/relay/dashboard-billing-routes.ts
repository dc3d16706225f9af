import type { FastifyInstance } from 'fastify';
import { requireCaller } from './relay-job';
import type { RelayRuntime } from './relay-runtime';

/** An unlimited key reports this hard limit, as clients expect a number. */
const UNLIMITED_USD = 100_000_000;

/**
 * The legacy OpenAI billing endpoints that dashboards and older clients read, computed from the key's quota
 * (DisplayTokenStatEnabled, the default) or from its owner's: limit = remaining + used, usage = used, both in
 * dollars when DisplayInCurrencyEnabled (usage in cents, as OpenAI answered it).
 */
export function registerDashboardBillingRoutes(scope: FastifyInstance, runtime: RelayRuntime): void {
  const { options } = runtime.context;

  function toAmount(quota: number): number {
    if (!options.getBoolean('DisplayInCurrencyEnabled')) return quota;
    return quota / (options.getNumber('QuotaPerUnit') || 500_000);
  }

  function readBalance(request: Parameters<typeof requireCaller>[0]) {
    const caller = requireCaller(request);
    const isKeyView = options.getBoolean('DisplayTokenStatEnabled');
    return {
      caller,
      remain: isKeyView ? caller.tokenRemainQuota : caller.userQuota,
      used: isKeyView ? caller.tokenUsedQuota : caller.userUsedQuota,
      isUnlimited: isKeyView && caller.isUnlimitedToken,
    };
  }

  scope.get('/billing/subscription', async (request) => {
    const { caller, remain, used, isUnlimited } = readBalance(request);
    const limit = isUnlimited ? UNLIMITED_USD : toAmount(remain + used);
    return {
      object: 'billing_subscription',
      has_payment_method: true,
      soft_limit_usd: limit,
      hard_limit_usd: limit,
      system_hard_limit_usd: limit,
      access_until: caller.tokenExpiredTime > 0 ? caller.tokenExpiredTime : 0,
    };
  });

  scope.get('/billing/usage', async (request) => {
    const { used } = readBalance(request);
    return { object: 'list', total_usage: toAmount(used) * 100 };
  });
}
