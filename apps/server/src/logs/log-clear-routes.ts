import type { FastifyInstance } from 'fastify';
import { logClearQuerySchema } from '@gatehouse/shared';
import type { AppContext } from '../context';
import { createGuards } from '../http/auth';
import { ok } from '../http/envelope';
import { parseWith } from '../http/validate';
import { auditActorOf } from '../audit/audit-actor';
import { recordAudit } from '../audit/audit-log';

/** DELETE /api/log/?target_timestamp= (admin): removes every log row older than the given second. */
export function registerLogClearRoutes(app: FastifyInstance, context: AppContext): void {
  const guards = createGuards(context);

  app.delete('/api/log/', { preHandler: guards.admin }, async (request) => {
    const { target_timestamp: targetTimestamp } = parseWith(logClearQuerySchema, request.query);
    const result = await context.db
      .deleteFrom('logs')
      .where('created_at', '<', targetTimestamp)
      .executeTakeFirst();
    const count = Number(result.numDeletedRows);
    await recordAudit(context.db, auditActorOf(request), {
      action: 'log.clear',
      target: { type: 'log', id: '' },
      changes: [
        { field: 'older_than', before: null, after: targetTimestamp },
        { field: 'deleted_rows', before: null, after: count },
      ],
    });
    return ok(count, `${count} logs cleaned up!`);
  });
}
