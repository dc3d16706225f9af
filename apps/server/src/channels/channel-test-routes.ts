import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { createGuards } from '../http/auth';
import { fail, ok } from '../http/envelope';
import { parseId } from '../http/validate';
import { getRelayRuntime } from '../relay/relay-runtime';
import { testChannel, testChannels } from './channel-health';

/** Pause between channels in a batch test: polite to upstreams that share a rate limit. */
const TEST_SPACING_MS = 1000;

/** Batch runs in progress, one per context: a second "test all" while one runs is refused. */
const runningBatches = new WeakSet<AppContext>();

/**
 * GET /api/channel/test/{id}?model= — one test, answered with success, message, time (s) and model.
 * GET /api/channel/test?scope=all|disabled — starts a batch in the background.
 * CHANNEL_TEST_FREQUENCY (minutes) schedules "all" on the master node.
 */
export function registerChannelTestRoutes(app: FastifyInstance, context: AppContext): void {
  const { admin } = createGuards(context);
  const runtime = getRelayRuntime(context, app.log);

  async function runBatch(scope: 'all' | 'disabled'): Promise<void> {
    runningBatches.add(context);
    try {
      await testChannels(runtime, scope, TEST_SPACING_MS);
    } catch (error) {
      app.log.error({ err: error }, 'channel test run failed');
    } finally {
      runningBatches.delete(context);
    }
  }

  app.get<{ Params: { id: string }; Querystring: { model?: string } }>(
    '/api/channel/test/:id',
    { preHandler: admin, config: { changesState: true } },
    async (request) => {
      const id = parseId(request.params.id);
      const row = await context.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) fail('Channel not found');
      const result = await testChannel(runtime, row, request.query.model ?? '');
      return { success: result.success, message: result.message, time: result.time, model: result.model };
    },
  );

  app.get<{ Querystring: { scope?: string } }>(
    '/api/channel/test',
    { preHandler: admin, config: { changesState: true } },
    async (request) => {
      const scope = request.query.scope ?? 'all';
      if (scope !== 'all' && scope !== 'disabled') fail('scope must be "all" or "disabled"');
      if (runningBatches.has(context))
        fail('A channel test is already running, please wait for it to finish');
      void runBatch(scope);
      return ok();
    },
  );

  const minutes = context.config.channelTestFrequencyMinutes;
  if (minutes > 0 && context.config.isMasterNode) {
    const timer = setInterval(() => {
      if (!runningBatches.has(context)) void runBatch('all');
    }, minutes * 60_000);
    timer.unref();
    context.closers.push(() => clearInterval(timer));
  }
}
