import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { createGuards } from '../../http/auth';
import { fail, ok } from '../../http/envelope';
import { parseId } from '../../http/validate';
import { getRelayRuntime } from '../../relay/relay-runtime';
import { updateAllChannelBalances, updateChannelBalance } from './channel-balance';

/** Pause between channels in "refresh all": vendors rate-limit their account endpoints. */
const REFRESH_SPACING_MS = 1000;

const runningRefreshes = new WeakSet<AppContext>();

/**
 * GET /api/channel/update_balance/{id} — one channel, answered as one-api does: { success, message, balance }.
 * GET /api/channel/update_balance — every enabled channel with a balance API, in the background.
 * GETs because one-api's console calls them so; they change state, so the cross-site guard covers them.
 */
export function registerChannelBalanceRoutes(app: FastifyInstance, context: AppContext): void {
  const { admin } = createGuards(context);
  const runtime = getRelayRuntime(context, app.log);

  app.get<{ Params: { id: string } }>(
    '/api/channel/update_balance/:id',
    { preHandler: admin, config: { changesState: true } },
    async (request) => {
      const id = parseId(request.params.id);
      const row = await context.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) fail('Channel not found');
      const result = await updateChannelBalance(runtime, row);
      if (!result.success) fail(result.message);
      return { success: true, message: '', balance: result.balance };
    },
  );

  app.get('/api/channel/update_balance', { preHandler: admin, config: { changesState: true } }, async () => {
    if (runningRefreshes.has(context)) fail('Balances are already being refreshed, please wait');
    runningRefreshes.add(context);
    void updateAllChannelBalances(runtime, REFRESH_SPACING_MS)
      .catch((error: unknown) => app.log.error({ err: error }, 'channel balance refresh failed'))
      .finally(() => runningRefreshes.delete(context));
    return ok();
  });
}
