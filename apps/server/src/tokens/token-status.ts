import { TokenStatus, nowSeconds, NEVER_EXPIRES } from '@gatehouse/shared';
import type { Db } from '../db/database';
import type { TokenRow } from '../db/schema';

type TokenLimits = Pick<TokenRow, 'expired_time' | 'remain_quota' | 'unlimited_quota'>;

export function isTokenExpired(token: Pick<TokenRow, 'expired_time'>, now = nowSeconds()): boolean {
  const expiredTime = Number(token.expired_time);
  return expiredTime !== NEVER_EXPIRES && expiredTime <= now;
}

export function isTokenExhausted(token: Pick<TokenRow, 'remain_quota' | 'unlimited_quota'>): boolean {
  return token.unlimited_quota !== 1 && Number(token.remain_quota) <= 0;
}

/**
 * The status a key should carry now. A disabled key stays disabled (only its owner enables it); any other
 * key is expired, exhausted or enabled according to its limits, so raising the quota or extending the expiry
 * of an expired or exhausted key makes it usable again.
 */
export function resolveTokenStatus(token: TokenLimits & { status: number }, now = nowSeconds()): number {
  if (token.status === TokenStatus.disabled) return TokenStatus.disabled;
  if (isTokenExpired(token, now)) return TokenStatus.expired;
  if (isTokenExhausted(token)) return TokenStatus.exhausted;
  return TokenStatus.enabled;
}

export const TOKEN_STATUS_MESSAGES = {
  [TokenStatus.disabled]: 'This API key is disabled',
  [TokenStatus.expired]: 'This API key has expired',
  [TokenStatus.exhausted]: 'This API key has used up its quota',
} as const;

/** Why an owner may not enable a key yet, or null when it may. */
export function findEnableRefusal(token: TokenLimits, now = nowSeconds()): string | null {
  if (isTokenExpired(token, now)) {
    return 'This key has expired and cannot be enabled: change its expiry time or set it to never expire';
  }
  if (isTokenExhausted(token)) {
    return 'This key has used up its quota and cannot be enabled: raise its remaining quota or make it unlimited';
  }
  return null;
}

/**
 * Records that an enabled key has expired or run out. Conditional on the key still being enabled, so it never
 * overrides an owner's disable and concurrent requests write once; true when this call changed the row.
 */
export async function markTokenStatus(
  db: Db,
  tokenId: number,
  status: typeof TokenStatus.expired | typeof TokenStatus.exhausted,
): Promise<boolean> {
  const result = await db
    .updateTable('tokens')
    .set({ status })
    .where('id', '=', tokenId)
    .where('status', '=', TokenStatus.enabled)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export type TokenUsability = { usable: true } | { usable: false; status: number; message: string };

/**
 * For the relay: may this key be used right now? An enabled key found past its expiry or out of quota is
 * marked expired or exhausted on the way, so the console shows why it stopped.
 */
export async function checkTokenUsable(db: Db, token: TokenRow, now = nowSeconds()): Promise<TokenUsability> {
  // A key marked expired or exhausted stays unusable until its owner edits or re-enables it.
  if (token.status !== TokenStatus.enabled) {
    return { usable: false, status: token.status, message: describeTokenStatus(token.status) };
  }
  const status = resolveTokenStatus(token, now);
  if (status === TokenStatus.expired || status === TokenStatus.exhausted) {
    await markTokenStatus(db, token.id, status);
    return { usable: false, status, message: TOKEN_STATUS_MESSAGES[status] };
  }
  return { usable: true };
}

function describeTokenStatus(status: number): string {
  return status === TokenStatus.disabled || status === TokenStatus.expired || status === TokenStatus.exhausted
    ? TOKEN_STATUS_MESSAGES[status]
    : 'This API key cannot be used';
}

/** Brings listed keys up to date (a key expires without any request); answers the rows as stored now. */
export async function refreshTokenStatuses(
  db: Db,
  rows: TokenRow[],
  now = nowSeconds(),
): Promise<TokenRow[]> {
  return Promise.all(
    rows.map(async (row) => {
      if (row.status !== TokenStatus.enabled) return row;
      const status = resolveTokenStatus(row, now);
      if (status === TokenStatus.expired || status === TokenStatus.exhausted) {
        await markTokenStatus(db, row.id, status);
        return { ...row, status };
      }
      return row;
    }),
  );
}
