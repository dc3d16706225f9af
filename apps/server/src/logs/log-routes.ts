import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { logQuerySchema, type LogPageEnvelope, type Log, type LogStat } from '@gatehouse/shared';
import { sql } from 'kysely';
import type { AppContext } from '../context';
import { createGuards, currentUser } from '../http/auth';
import { ok } from '../http/envelope';
import { parseWith } from '../http/validate';
import { streamLogCsv } from './log-export';
import {
  afterLogCursor,
  applyLogFilters,
  decodeLogCursor,
  encodeLogCursor,
  orderLogs,
  readLogPage,
  statLogType,
  toLog,
  type LogScope,
} from './log-query';

/**
 * A user sees that its request was retried and how often, not the upstream's words about the failure (they
 * can quote a channel's account or key): those stay for admins.
 */
function forScope(log: Log, scope: LogScope): Log {
  if (scope.kind === 'all' || log.retries.length === 0) return log;
  return { ...log, retries: log.retries.map((retry) => ({ ...retry, error: '' })) };
}

/**
 * The usage log: admins read everyone's (GET /api/log/), every user its own (GET /api/log/self/).
 * A page is asked by `cursor` (keyset: the cost of any page is the cost of the first) or by `p` (an offset:
 * the database walks past p × size rows, so deep pages of a big table are slow; kept for one-api's console).
 * Either way the answer carries `next_cursor`, null on the last page.
 */
/** logs-YYYYMMDD-HHmmss.csv on the server's clock: two exports never share a name in the downloads folder. */
export function exportFileName(at: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  const day = `${at.getFullYear()}${pad(at.getMonth() + 1)}${pad(at.getDate())}`;
  return `logs-${day}-${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}.csv`;
}

export function registerLogRoutes(app: FastifyInstance, context: AppContext): void {
  const { db } = context;
  const guards = createGuards(context);

  async function listLogs(request: FastifyRequest, scope: LogScope): Promise<LogPageEnvelope<Log[]>> {
    const filters = parseWith(logQuerySchema, request.query);
    const cursor = filters.cursor === undefined ? null : decodeLogCursor(filters.cursor);
    const page = readLogPage(filters);
    // One row more than the page tells whether another page follows.
    const rows = await orderLogs(
      afterLogCursor(applyLogFilters(db.selectFrom('logs').selectAll(), filters, scope), cursor),
    )
      .limit(page.limit + 1)
      .offset(cursor ? 0 : page.offset)
      .execute();
    const hasMore = rows.length > page.limit;
    const shown = hasMore ? rows.slice(0, page.limit) : rows;
    const last = shown[shown.length - 1];
    return {
      ...ok(shown.map((row) => forScope(toLog(row), scope))),
      next_cursor:
        hasMore && last ? encodeLogCursor({ createdAt: Number(last.created_at), id: last.id }) : null,
    };
  }

  function exportLogs(request: FastifyRequest, reply: FastifyReply, scope: LogScope) {
    const filters = parseWith(logQuerySchema, request.query);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${exportFileName(new Date())}"`)
      .send(streamLogCsv(db, filters, scope));
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
  app.get('/api/log/export', { preHandler: guards.admin }, (request, reply) =>
    exportLogs(request, reply, { kind: 'all' }),
  );
  app.get('/api/log/self/export', { preHandler: guards.user }, (request, reply) =>
    exportLogs(request, reply, self(request)),
  );
  app.get('/api/log/stat', { preHandler: guards.admin }, (request) => sumLogQuota(request, { kind: 'all' }));
  app.get('/api/log/self/stat', { preHandler: guards.user }, (request) =>
    sumLogQuota(request, self(request)),
  );
}
