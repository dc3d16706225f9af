import type { FastifyInstance, FastifyRequest } from 'fastify';
import { logQuerySchema, type LogStat } from '@gatehouse/shared';
import { sql } from 'kysely';
import type { AppContext } from '../context';
import { createGuards, currentUser } from '../http/auth';
import { ok } from '../http/envelope';
import { parseWith } from '../http/validate';
import { applyLogFilters, readLogPage, statLogType, toLog, type LogScope } from './log-query';

/** The usage log: admins read everyone's (GET /api/log/), every user its own (GET /api/log/self/). */
export function registerLogRoutes(app: FastifyInstance, context: AppContext): void {
  const { db } = context;
  const guards = createGuards(context);

  async function listLogs(request: FastifyRequest, scope: LogScope) {
    const filters = parseWith(logQuerySchema, request.query);
    const page = readLogPage(filters);
    const rows = await applyLogFilters(db.selectFrom('logs').selectAll(), filters, scope)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return ok(rows.map(toLog));
  }

  async function sumLogQuota(request: FastifyRequest, scope: LogScope) {
    const filters = parseWith(logQuerySchema, request.query);
    const row = await applyLogFilters(
      db.selectFrom('logs').select(sql<number | string | null>`sum(quota)`.as('quota')),
      { ...filters, type: statLogType(filters) },
      scope,
    ).executeTakeFirst();
    // PostgreSQL and MySQL answer sum() of bigints as text; no rows gives null.
    const stat: LogStat = { quota: Number(row?.quota ?? 0) };
    return ok(stat);
  }

  const self = (request: FastifyRequest): LogScope => ({ kind: 'user', userId: currentUser(request).id });

  app.get('/api/log/', { preHandler: guards.admin }, (request) => listLogs(request, { kind: 'all' }));
  app.get('/api/log/self/', { preHandler: guards.user }, (request) => listLogs(request, self(request)));
  app.get('/api/log/stat', { preHandler: guards.admin }, (request) => sumLogQuota(request, { kind: 'all' }));
  app.get('/api/log/self/stat', { preHandler: guards.user }, (request) =>
    sumLogQuota(request, self(request)),
  );
}
