import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  TokenStatus,
  createTokenRequestSchema,
  findBudgetRefusal,
  keywordPageQuerySchema,
  nowSeconds,
  statusOnlyQuerySchema,
  tokenListQuerySchema,
  tokenStatusRequestSchema,
  updateTokenRequestSchema,
} from '@gatehouse/shared';
import type { AppContext } from '../context';
import { MAX_PAGE_SIZE, readPage } from '../db/paging';
import { createGuards, currentUser } from '../http/auth';
import { fail, ok } from '../http/envelope';
import { parseId, parseWith } from '../http/validate';
import { auditActorOf } from '../audit/audit-actor';
import { recordAudit } from '../audit/audit-log';
import { tokenChanges } from '../audit/audit-subjects';
import type { TokenRow } from '../db/schema';
import { describeInvalidSubnet, findInvalidSubnet } from './subnet';
import { findOwnedToken, insertToken, listTokens, searchTokens, toToken } from './token-repository';
import { findEnableRefusal, refreshTokenStatuses, resolveTokenStatus } from './token-status';

const NOT_FOUND = 'Key not found';

function assertValidSubnets(subnet: string): void {
  const invalid = findInvalidSubnet(subnet);
  if (invalid !== null) fail(describeInvalidSubnet(invalid));
}

type TokenInput = z.output<typeof createTokenRequestSchema>;

/** The rate limits, budget and per-model overrides as stored ('' when there are no overrides). */
function toLimitColumns(input: TokenInput) {
  const refusal = findBudgetRefusal(input);
  if (refusal) fail(refusal);
  return {
    rpm_limit: input.rpm_limit,
    tpm_limit: input.tpm_limit,
    max_parallel_requests: input.max_parallel_requests,
    budget: input.budget,
    budget_period: input.budget_period,
    model_limits: Object.keys(input.model_limits).length === 0 ? '' : JSON.stringify(input.model_limits),
  };
}

/** A user's own API keys. Every query filters by the owner together with the id. */
export function registerTokenRoutes(app: FastifyInstance, context: AppContext): void {
  const { db } = context;
  const guards = createGuards(context);

  app.get('/api/token/', { preHandler: guards.user }, async (request) => {
    const query = parseWith(tokenListQuerySchema, request.query);
    const rows = await listTokens(db, currentUser(request).id, query.order, readPage(query));
    return ok((await refreshTokenStatuses(db, rows)).map(toToken));
  });

  app.get('/api/token/search', { preHandler: guards.user }, async (request) => {
    const { keyword, p, size } = parseWith(keywordPageQuerySchema, request.query);
    const page = readPage({ p, size: size ?? MAX_PAGE_SIZE });
    const rows = await searchTokens(db, currentUser(request).id, keyword, page);
    return ok((await refreshTokenStatuses(db, rows)).map(toToken));
  });

  app.get<{ Params: { id: string } }>('/api/token/:id', { preHandler: guards.user }, async (request) => {
    const row = await findOwnedToken(db, currentUser(request).id, parseId(request.params.id));
    if (!row) fail(NOT_FOUND);
    const [fresh] = await refreshTokenStatuses(db, [row]);
    return ok(toToken(fresh ?? row));
  });

  app.post('/api/token/', { preHandler: guards.user }, async (request) => {
    const input = parseWith(createTokenRequestSchema, request.body);
    assertValidSubnets(input.subnet);
    const now = nowSeconds();
    const limits = {
      remain_quota: input.remain_quota,
      unlimited_quota: input.unlimited_quota ? 1 : 0,
      expired_time: input.expired_time,
    };
    const row = await insertToken(db, {
      ...limits,
      user_id: currentUser(request).id,
      name: input.name,
      // A key created already past its expiry or without quota says so from the start.
      status: resolveTokenStatus({ ...limits, status: TokenStatus.enabled }, now),
      created_time: now,
      accessed_time: now,
      models: input.models,
      subnet: input.subnet,
      ...toLimitColumns(input),
    });
    await recordAudit(db, auditActorOf(request), {
      action: 'token.create',
      target: { type: 'token', id: row.id, name: row.name },
      changes: tokenChanges(null, row),
    });
    return ok(toToken(row));
  });

  /** PUT ?status_only=true: the owner toggles enabled / disabled; enabling needs a key that is valid again. */
  async function updateTokenStatus(userId: number, body: unknown): Promise<TokenRow> {
    const input = parseWith(tokenStatusRequestSchema, body);
    const existing = await findOwnedToken(db, userId, input.id);
    if (!existing) fail(NOT_FOUND);
    if (input.status === TokenStatus.enabled) {
      const refusal = findEnableRefusal(existing);
      if (refusal) fail(refusal);
    }
    await db
      .updateTable('tokens')
      .set({ status: input.status })
      .where('id', '=', input.id)
      .where('user_id', '=', userId)
      .execute();
    return existing;
  }

  async function updateTokenFields(userId: number, body: unknown): Promise<TokenRow> {
    const input = parseWith(updateTokenRequestSchema, body);
    assertValidSubnets(input.subnet);
    const existing = await findOwnedToken(db, userId, input.id);
    if (!existing) fail(NOT_FOUND);
    const limits = {
      remain_quota: input.remain_quota,
      unlimited_quota: input.unlimited_quota ? 1 : 0,
      expired_time: input.expired_time,
    };
    await db
      .updateTable('tokens')
      .set({
        ...limits,
        name: input.name,
        models: input.models,
        subnet: input.subnet,
        ...toLimitColumns(input),
        status: resolveTokenStatus({ ...limits, status: existing.status }),
      })
      .where('id', '=', input.id)
      .where('user_id', '=', userId)
      .execute();
    return existing;
  }

  app.put('/api/token/', { preHandler: guards.user }, async (request) => {
    const userId = currentUser(request).id;
    const { status_only: isStatusOnly } = parseWith(statusOnlyQuerySchema, request.query);
    const before = isStatusOnly
      ? await updateTokenStatus(userId, request.body)
      : await updateTokenFields(userId, request.body);
    const id = before.id;
    context.events.emit('keysChanged');
    const updated = await findOwnedToken(db, userId, id);
    if (!updated) fail(NOT_FOUND);
    const statusAction = updated.status === TokenStatus.enabled ? 'token.enable' : 'token.disable';
    await recordAudit(db, auditActorOf(request), {
      action: isStatusOnly ? statusAction : 'token.update',
      target: { type: 'token', id, name: updated.name },
      changes: tokenChanges(before, updated),
    });
    return ok(toToken(updated));
  });

  app.delete<{ Params: { id: string } }>('/api/token/:id', { preHandler: guards.user }, async (request) => {
    const userId = currentUser(request).id;
    const existing = await findOwnedToken(db, userId, parseId(request.params.id));
    if (!existing) fail(NOT_FOUND);
    const result = await db
      .deleteFrom('tokens')
      .where('id', '=', existing.id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) fail(NOT_FOUND);
    await recordAudit(db, auditActorOf(request), {
      action: 'token.delete',
      target: { type: 'token', id: existing.id, name: existing.name },
      changes: tokenChanges(existing, null),
    });
    context.events.emit('keysChanged');
    return ok();
  });
}
