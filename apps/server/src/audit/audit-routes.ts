import type { FastifyInstance } from 'fastify';
import { auditQuerySchema, isRootRole, type AuditChange, type AuditEntry } from '@gatehouse/shared';
import type { AppContext } from '../context';
import { readPage } from '../db/paging';
import { createGuards, currentUser } from '../http/auth';
import { ok } from '../http/envelope';
import { parseWith } from '../http/validate';
import type { AuditLogTable } from '../db/schema';
import type { Selectable } from 'kysely';
import { startAuditPruning } from './audit-pruning';

function toAuditEntry(row: Selectable<AuditLogTable>): AuditEntry {
  return {
    id: row.id,
    created_at: Number(row.created_at),
    actor_id: row.actor_id,
    actor_name: row.actor_name,
    ip: row.ip,
    action: row.action,
    target_type: row.target_type,
    target_id: row.target_id,
    target_name: row.target_name,
    changes: JSON.parse(row.changes) as AuditChange[],
  };
}

/**
 * GET /api/audit (admins): newest first, filtered exactly by actor name, action, target and time. Options are
 * root's alone (only root reads or writes them), so their entries are answered to root only. Starts the pruner.
 */
export function registerAuditRoutes(app: FastifyInstance, context: AppContext): void {
  const { admin } = createGuards(context);

  app.get('/api/audit', { preHandler: admin }, async (request) => {
    const filters = parseWith(auditQuerySchema, request.query);
    const page = readPage(filters);
    let query = context.db.selectFrom('audit_log').selectAll();
    if (!isRootRole(currentUser(request).role)) query = query.where('target_type', '!=', 'option');
    if (filters.actor) query = query.where('actor_name', '=', filters.actor);
    if (filters.action) query = query.where('action', '=', filters.action);
    if (filters.target_type) query = query.where('target_type', '=', filters.target_type);
    if (filters.target_id) query = query.where('target_id', '=', filters.target_id);
    if (filters.start !== undefined) query = query.where('created_at', '>=', filters.start);
    if (filters.end !== undefined) query = query.where('created_at', '<=', filters.end);
    const rows = await query.orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
    return ok(rows.map(toAuditEntry));
  });

  startAuditPruning(context, app.log);
}
