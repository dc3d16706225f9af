import { performance } from 'node:perf_hooks';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { Role, TokenStatus, UserStatus, parseModelLimits, splitCommaList } from '@gatehouse/shared';
import type { CallerLimits } from '../limits/caller-limits';
import { readLimitFields } from '../limits/limit-fields';
import type { Db } from '../db/database';
import { precompile } from '../billing/precompiled-query';
import { checkTokenUsable, resolveTokenStatus } from '../tokens/token-status';
import { createSubnetMatcher } from '../tokens/subnet';
import type { KeyCache } from './key-cache';
import { relayErrors } from './relay-error';

declare module 'fastify' {
  interface FastifyRequest {
    /** performance.now() when the relay's key check began, the request's arrival (0 before) */
    relayReceivedAt: number;
    /** performance.now() when the relay's key check passed (0 before): the trace's auth span ends there */
    relayAuthenticatedAt: number;
  }
}

/** Who is calling the relay: the key and its owner. */
export interface RelayCaller {
  /** the key as presented, without `sk-` or a pinned channel */
  key: string;
  tokenId: number;
  tokenName: string;
  isUnlimitedToken: boolean;
  tokenRemainQuota: number;
  tokenUsedQuota: number;
  tokenExpiredTime: number;
  /** the key's model list; null = every model */
  allowedModels: ReadonlySet<string> | null;
  userId: number;
  username: string;
  userQuota: number;
  userUsedQuota: number;
  /** the user's groups, in order (an empty group is "default") */
  groups: string[];
  /** `sk-KEY-CHANNELID`: an administrator's request pinned to one channel */
  pinnedChannelId: number | null;
  /** rate limits and budgets of the key (with its per-model overrides) and of its owner */
  limits: CallerLimits;
}

const buildKeyQuery = (db: Db, key: string) =>
  db
    .selectFrom('tokens')
    .innerJoin('users', 'users.id', 'tokens.user_id')
    .selectAll('tokens')
    .select([
      'users.username',
      'users.group as user_group',
      'users.status as user_status',
      'users.role as user_role',
      'users.quota as user_quota',
      'users.used_quota as user_used_quota',
      'users.rpm_limit as user_rpm_limit',
      'users.tpm_limit as user_tpm_limit',
      'users.max_parallel_requests as user_max_parallel_requests',
      'users.budget as user_budget',
      'users.budget_period as user_budget_period',
    ])
    .where('tokens.key', '=', key);

export type KeyRow = NonNullable<Awaited<ReturnType<ReturnType<typeof buildKeyQuery>['executeTakeFirst']>>>;
export type RelayKeyCache = KeyCache<KeyRow>;

const keyQuery = precompile(buildKeyQuery, ['\u0000sample-key']);

async function readKeyRow(db: Db, key: string): Promise<KeyRow | null> {
  const result = await db.executeQuery<KeyRow>(keyQuery(db, key));
  return result.rows[0] ?? null;
}

function withoutPrefix(presented: unknown): string {
  const key = (typeof presented === 'string' ? presented : '').trim();
  return key.startsWith('sk-') ? key.slice(3) : key;
}

/** `Authorization: Bearer sk-…`, or the `x-api-key` / `api-key` / `x-goog-api-key` headers other SDKs send. */
function readPresentedKey(request: FastifyRequest): string {
  const { authorization } = request.headers;
  const presented =
    typeof authorization === 'string' && authorization.trim() !== ''
      ? authorization.trim().replace(/^Bearer\s+/i, '')
      : (request.headers['x-api-key'] ?? request.headers['api-key'] ?? request.headers['x-goog-api-key']);
  return withoutPrefix(presented);
}

/** Where a protocol's clients put the key, and how to tell them when it is missing. */
export interface KeyPlacement {
  read(request: FastifyRequest): string;
  /** completes "No API key provided: send it …" */
  hint: string;
}

export const headerKeyPlacement: KeyPlacement = {
  read: readPresentedKey,
  hint: 'as "Authorization: Bearer sk-…"',
};

/**
 * Gemini clients: the `x-goog-api-key` header or the `?key=` query parameter, as the Gemini API takes them
 * (https://ai.google.dev/gemini-api/docs/api-key), or any header the other clients use. The query string
 * never reaches a log: request lines are written without it (logging/request-log.ts).
 */
export const googleKeyPlacement: KeyPlacement = {
  read(request) {
    const header = readPresentedKey(request);
    if (header !== '') return header;
    const { key } = (request.query ?? {}) as { key?: unknown };
    return withoutPrefix(Array.isArray(key) ? key[0] : key);
  },
  hint: 'in the x-goog-api-key header or as ?key=',
};

function findKeyRow(db: Db, keys: RelayKeyCache, key: string): Promise<KeyRow | null> {
  return keys.get(key, (presented) => readKeyRow(db, presented));
}

/** The key is enabled, unexpired and not exhausted (marked so when found), and its owner is enabled. */
async function assertKeyUsable(db: Db, row: KeyRow): Promise<void> {
  const usability = await checkTokenUsable(db, row);
  if (!usability.usable) {
    throw usability.status === TokenStatus.exhausted
      ? relayErrors.insufficientQuota(usability.message)
      : relayErrors.keyUnusable(usability.message);
  }
  assertOwnerEnabled(row);
}

function assertOwnerEnabled(row: KeyRow): void {
  if (row.user_status !== UserStatus.enabled) {
    throw relayErrors.forbidden('The account that owns this API key is disabled', 'account_deactivated');
  }
}

/**
 * The relay's key check as an onRequest hook, setting `request.relayCaller`. A callback hook, so that a cached
 * key (authenticateRelayKey answers it at once) costs no promise and no microtask.
 */
export function createKeyCheck(db: Db, keys: RelayKeyCache, placement: KeyPlacement = headerKeyPlacement) {
  return (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    let found: RelayCaller | Promise<RelayCaller>;
    try {
      found = authenticateRelayKey(db, keys, request, placement);
    } catch (error) {
      done(error as Error);
      return;
    }
    if (found instanceof Promise) {
      found.then((caller) => {
        request.relayCaller = caller;
        done();
      }, done);
      return;
    }
    request.relayCaller = found;
    done();
  };
}

/** What a caller reads from its key's row beyond plain columns: lists and limits, parsed. */
type ParsedKeyFields = Pick<RelayCaller, 'allowedModels' | 'groups' | 'limits'>;

/**
 * Parsed once per row object: the key cache hands the same row to every request for a second, and parsing
 * the limits (a zod check of the model limits JSON) on each request was ~5 % of a relayed request's CPU.
 * Callers only read these.
 */
const parsedByRow = new WeakMap<KeyRow, ParsedKeyFields>();

function parseKeyFields(row: KeyRow): ParsedKeyFields {
  const models = splitCommaList(row.models);
  const groups = splitCommaList(row.user_group);
  return {
    allowedModels: models.length === 0 ? null : new Set(models),
    groups: groups.length === 0 ? ['default'] : groups,
    limits: {
      token: readLimitFields(row),
      user: readLimitFields({
        rpm_limit: row.user_rpm_limit,
        tpm_limit: row.user_tpm_limit,
        max_parallel_requests: row.user_max_parallel_requests,
        budget: row.user_budget,
        budget_period: row.user_budget_period,
      }),
      modelLimits: parseModelLimits(row.model_limits),
    },
  };
}

function toCaller(key: string, row: KeyRow, pinnedChannelId: number | null): RelayCaller {
  let parsed = parsedByRow.get(row);
  if (!parsed) {
    parsed = parseKeyFields(row);
    parsedByRow.set(row, parsed);
  }
  return {
    key,
    tokenId: row.id,
    tokenName: row.name,
    isUnlimitedToken: row.unlimited_quota === 1,
    tokenRemainQuota: Number(row.remain_quota),
    tokenUsedQuota: Number(row.used_quota),
    tokenExpiredTime: Number(row.expired_time),
    allowedModels: parsed.allowedModels,
    userId: row.user_id,
    username: row.username,
    userQuota: Number(row.user_quota),
    userUsedQuota: Number(row.user_used_quota),
    groups: parsed.groups,
    pinnedChannelId,
    limits: parsed.limits,
  };
}

/**
 * Whether a cached row is usable as it stands: enabled, and neither past its expiry nor out of quota. When it
 * is not, the slow path decides (and marks the key expired or exhausted).
 */
function isUsableAsCached(row: KeyRow): boolean {
  return row.status === TokenStatus.enabled && resolveTokenStatus(row) === TokenStatus.enabled;
}

/**
 * Authenticates a relay call: the key exists and is usable, its owner is enabled, and the client address is
 * inside the key's subnets. The model check comes later, once the body is read. A key used in the last second
 * (the key cache) that needs no status written is answered at once, without a promise: the common case costs
 * no microtasks. Throws or rejects with the refusal.
 */
export function authenticateRelayKey(
  db: Db,
  keys: RelayKeyCache,
  request: FastifyRequest,
  placement: KeyPlacement = headerKeyPlacement,
): RelayCaller | Promise<RelayCaller> {
  request.relayReceivedAt = performance.now();
  const presented = placement.read(request);
  if (presented === '') throw relayErrors.missingKey(placement.hint);
  const cached = keys.find(presented);
  if (cached && isUsableAsCached(cached)) {
    assertOwnerEnabled(cached);
    return admitKey(request, presented, cached, null);
  }
  return authenticateFromDatabase(db, keys, request, presented);
}

/** The key check when the row must be read (not cached, or a pinned channel) or a status written. */
async function authenticateFromDatabase(
  db: Db,
  keys: RelayKeyCache,
  request: FastifyRequest,
  presented: string,
): Promise<RelayCaller> {
  let key = presented;
  let row = await findKeyRow(db, keys, presented);
  let pinnedChannelId: number | null = null;
  const pinned = row ? null : /^(.+)-(\d+)$/.exec(presented);
  if (pinned) {
    key = pinned[1];
    row = await findKeyRow(db, keys, key);
    pinnedChannelId = Number(pinned[2]);
  }
  if (!row) throw relayErrors.invalidKey();
  await assertKeyUsable(db, row);
  return admitKey(request, key, row, pinnedChannelId);
}

/** The checks after the key's own status: the client's address, and who may pin a channel. */
function admitKey(
  request: FastifyRequest,
  key: string,
  row: KeyRow,
  pinnedChannelId: number | null,
): RelayCaller {
  if (row.subnet.trim() !== '' && !createSubnetMatcher(row.subnet)(request.ip)) {
    throw relayErrors.forbidden(
      `This API key cannot be used from your address (${request.ip})`,
      'ip_not_allowed',
    );
  }
  if (pinnedChannelId !== null && row.user_role < Role.admin) {
    throw relayErrors.forbidden(
      'Only administrators can choose a channel with sk-KEY-CHANNELID',
      'channel_pin_forbidden',
    );
  }
  request.relayAuthenticatedAt = performance.now();
  return toCaller(key, row, pinnedChannelId);
}

/**
 * After a refused reservation: the key as stored now. Throws when the key or its owner is no longer usable
 * (disabled or expired since it was cached); otherwise answers the current balances for the message.
 */
export async function recheckKey(
  db: Db,
  keys: RelayKeyCache,
  caller: RelayCaller,
): Promise<{ userQuota: number; tokenRemainQuota: number }> {
  keys.forget(caller.key);
  const row = await readKeyRow(db, caller.key);
  if (!row) throw relayErrors.invalidKey();
  await assertKeyUsable(db, row);
  return { userQuota: Number(row.user_quota), tokenRemainQuota: Number(row.remain_quota) };
}

/** The key's model list, when it has one, must contain the model. */
export function assertModelAllowed(caller: RelayCaller, model: string): void {
  if (caller.allowedModels && !caller.allowedModels.has(model)) {
    throw relayErrors.forbidden(
      `This API key is not allowed to use the model "${model}"`,
      'model_not_allowed',
    );
  }
}
