import type { FastifyInstance } from 'fastify';
import {
  RedemptionStatus,
  createRedemptionRequestSchema,
  keywordPageQuerySchema,
  nowSeconds,
  pageQuerySchema,
  redemptionStatusRequestSchema,
  statusOnlyQuerySchema,
  updateRedemptionRequestSchema,
} from '@gatehouse/shared';
import type { AppContext } from '../context';
import { MAX_PAGE_SIZE, readPage } from '../db/paging';
import { createGuards, currentUser } from '../http/auth';
import { fail, ok } from '../http/envelope';
import { parseId, parseWith } from '../http/validate';
import { recordManageLog } from '../logs/log-writer';
import { auditActorOf } from '../audit/audit-actor';
import { recordAudit } from '../audit/audit-log';
import { redemptionChanges } from '../audit/audit-subjects';
import { describeQuota } from '../users/register-user';
import {
  createRedemptions,
  findRedemptionById,
  listRedemptions,
  searchRedemptions,
  toRedemption,
} from './redemption-repository';

const NOT_FOUND = 'Redemption code not found';
const USED = 'This redemption code has already been used and cannot be changed';

/** Redemption codes (admin). A used code is history: it can be read and deleted, not changed. */
export function registerRedemptionRoutes(app: FastifyInstance, context: AppContext): void {
  const { db } = context;
  const guards = createGuards(context);

  app.get('/api/redemption/', { preHandler: guards.admin }, async (request) => {
    const rows = await listRedemptions(db, readPage(parseWith(pageQuerySchema, request.query)));
    return ok(rows.map(toRedemption));
  });

  app.get('/api/redemption/search', { preHandler: guards.admin }, async (request) => {
    const { keyword, p, size } = parseWith(keywordPageQuerySchema, request.query);
    const page = readPage({ p, size: size ?? MAX_PAGE_SIZE });
    return ok((await searchRedemptions(db, keyword, page)).map(toRedemption));
  });

  app.get<{ Params: { id: string } }>(
    '/api/redemption/:id',
    { preHandler: guards.admin },
    async (request) => {
      const row = await findRedemptionById(db, parseId(request.params.id));
      if (!row) fail(NOT_FOUND);
      return ok(toRedemption(row));
    },
  );

  app.post('/api/redemption/', { preHandler: guards.admin }, async (request) => {
    const input = parseWith(createRedemptionRequestSchema, request.body);
    const admin = currentUser(request);
    const actor = auditActorOf(request);
    const keys = await createRedemptions(
      db,
      { ...input, userId: admin.id, now: nowSeconds() },
      (transaction, rows) =>
        recordAudit(
          transaction,
          actor,
          rows.map((row) => ({
            action: 'redemption.create',
            target: { type: 'redemption', id: row.id, name: row.name },
            changes: redemptionChanges(null, row),
          })),
        ),
    );
    await recordManageLog(
      db,
      admin.id,
      admin.username,
      `Created ${keys.length} redemption code(s) "${input.name}" worth ${describeQuota(context, input.quota)} each`,
    );
    return ok(keys);
  });

  app.put('/api/redemption/', { preHandler: guards.admin }, async (request) => {
    const { status_only: isStatusOnly } = parseWith(statusOnlyQuerySchema, request.query);
    const input = isStatusOnly
      ? parseWith(redemptionStatusRequestSchema, request.body)
      : parseWith(updateRedemptionRequestSchema, request.body);
    const update = 'status' in input ? { status: input.status } : { name: input.name, quota: input.quota };
    const before = await findRedemptionById(db, input.id);
    // Conditional on "not used" in the same statement, so an edit can never race a top-up.
    const result = await db
      .updateTable('redemptions')
      .set(update)
      .where('id', '=', input.id)
      .where('status', '!=', RedemptionStatus.used)
      .executeTakeFirst();
    const row = await findRedemptionById(db, input.id);
    if (!row) fail(NOT_FOUND);
    // MySQL counts unchanged rows as not updated, so the stored status decides.
    if (Number(result.numUpdatedRows) === 0 && row.status === RedemptionStatus.used) fail(USED);
    if (before) {
      const statusAction =
        row.status === RedemptionStatus.unused ? 'redemption.enable' : 'redemption.disable';
      await recordAudit(db, auditActorOf(request), {
        action: 'status' in input ? statusAction : 'redemption.update',
        target: { type: 'redemption', id: row.id, name: row.name },
        changes: redemptionChanges(before, row),
      });
    }
    return ok(toRedemption(row));
  });

  app.delete<{ Params: { id: string } }>(
    '/api/redemption/:id',
    { preHandler: guards.admin },
    async (request) => {
      const before = await findRedemptionById(db, parseId(request.params.id));
      if (!before) fail(NOT_FOUND);
      const result = await db.deleteFrom('redemptions').where('id', '=', before.id).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) fail(NOT_FOUND);
      await recordAudit(db, auditActorOf(request), {
        action: 'redemption.delete',
        target: { type: 'redemption', id: before.id, name: before.name },
        changes: redemptionChanges(before, null),
      });
      return ok();
    },
  );
}
