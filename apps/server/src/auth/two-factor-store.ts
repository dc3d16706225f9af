import { createHash } from 'node:crypto';
import type * as OtpAuth from 'otpauth';
import type * as QRCode from 'qrcode';
import { RECOVERY_CODE_COUNT, nowSeconds, type TwoFactorEnrolment } from '@gatehouse/shared';
import type { Config } from '../config/config';
import type { Db } from '../db/database';
import type { UserRow } from '../db/schema';
import { randomText } from './password';
import { openTwoFactorSecret, sealTwoFactorSecret } from './two-factor-secret';
import { lazyPackage } from '../lazy-package';

// Loaded when someone sets up or uses two-factor sign-in.
const otpauth = lazyPackage<typeof OtpAuth>('otpauth');
const qrcode = lazyPackage<typeof QRCode>('qrcode');

/** What authenticator apps all accept: SHA-1, 6 digits, a new code every 30 seconds. */
const TOTP_SETTINGS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
/** A code of the step before or after the server's clock also counts (clocks drift, people type slowly). */
const TOTP_WINDOW = 1;
const RECOVERY_CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Recovery codes are compared without case, spaces or dashes. */
const normaliseRecoveryCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '');
const hashRecoveryCode = (code: string) =>
  createHash('sha256').update(normaliseRecoveryCode(code)).digest('hex');

export function findTwoFactor(db: Db, userId: number) {
  return db.selectFrom('two_factor').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export async function countRecoveryCodes(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('two_factor_recovery_codes')
    .select((select) => select.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A new secret, stored pending (it signs no one in until a first code confirms it); replaces a pending one. */
export async function startEnrolment(
  db: Db,
  config: Config,
  user: UserRow,
  issuer: string,
): Promise<TwoFactorEnrolment> {
  const { Secret, TOTP } = otpauth();
  const secret = new Secret({ size: 20 });
  const totp = new TOTP({ ...TOTP_SETTINGS, issuer, label: user.username, secret });
  await db.transaction().execute(async (transaction) => {
    await transaction.deleteFrom('two_factor').where('user_id', '=', user.id).execute();
    await transaction
      .insertInto('two_factor')
      .values({
        user_id: user.id,
        secret: sealTwoFactorSecret(config, secret.base32),
        created_at: nowSeconds(),
      })
      .execute();
  });
  const uri = totp.toString();
  return { secret: secret.base32, uri, qr_code: await qrcode().toDataURL(uri, { margin: 1, width: 240 }) };
}

export type TotpCheck =
  | { kind: 'accepted'; step: number }
  | { kind: 'wrong' }
  /** the secret was sealed under another SESSION_SECRET */
  | { kind: 'unreadable' };

/** Checks a 6-digit code against the stored secret; the step it was made for, for the replay check. */
export function checkTotpCode(
  config: Config,
  storedSecret: string,
  code: string,
  now = Date.now(),
): TotpCheck {
  const base32 = openTwoFactorSecret(config, storedSecret);
  if (base32 === null) return { kind: 'unreadable' };
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return { kind: 'wrong' };
  const { Secret, TOTP } = otpauth();
  const delta = TOTP.validate({
    ...TOTP_SETTINGS,
    token,
    secret: Secret.fromBase32(base32),
    timestamp: now,
    window: TOTP_WINDOW,
  });
  if (delta === null) return { kind: 'wrong' };
  return { kind: 'accepted', step: TOTP.counter({ period: TOTP_SETTINGS.period, timestamp: now }) + delta };
}

/**
 * Records that a code of `step` was used; false when this step or a later one was already used (a replayed
 * code). One conditional UPDATE, so two requests racing with the same code cannot both win, on any instance.
 */
export async function claimTotpStep(db: Db, userId: number, step: number): Promise<boolean> {
  const result = await db
    .updateTable('two_factor')
    .set({ last_used_step: step })
    .where('user_id', '=', userId)
    .where('last_used_step', '<', step)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Spends a recovery code: true once per code (the DELETE decides, so a race has one winner). */
export async function spendRecoveryCode(db: Db, userId: number, code: string): Promise<boolean> {
  if (normaliseRecoveryCode(code).length === 0) return false;
  const result = await db
    .deleteFrom('two_factor_recovery_codes')
    .where('user_id', '=', userId)
    .where('code_hash', '=', hashRecoveryCode(code))
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const code = randomText(10, RECOVERY_CODE_ALPHABET);
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

type Transaction = Parameters<Parameters<ReturnType<Db['transaction']>['execute']>[0]>[0];

async function storeRecoveryCodes(transaction: Transaction, userId: number): Promise<string[]> {
  const codes = newRecoveryCodes();
  await transaction.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
  await transaction
    .insertInto('two_factor_recovery_codes')
    .values(codes.map((code) => ({ user_id: userId, code_hash: hashRecoveryCode(code) })))
    .execute();
  return codes;
}

/** Turns a confirmed enrolment on and answers its recovery codes (only their hashes are kept). */
export function enableTwoFactor(db: Db, userId: number, confirmedStep: number): Promise<string[]> {
  return db.transaction().execute(async (transaction) => {
    await transaction
      .updateTable('two_factor')
      .set({ is_enabled: 1, enabled_at: nowSeconds(), last_used_step: confirmedStep })
      .where('user_id', '=', userId)
      .execute();
    await transaction.updateTable('users').set({ two_factor_enabled: 1 }).where('id', '=', userId).execute();
    return storeRecoveryCodes(transaction, userId);
  });
}

/** New recovery codes; the old ones stop working. */
export function replaceRecoveryCodes(db: Db, userId: number): Promise<string[]> {
  return db.transaction().execute((transaction) => storeRecoveryCodes(transaction, userId));
}

/** Turns two-factor sign-in off (the user, or root's reset): secret, recovery codes and waiting sign-ins go. */
export async function removeTwoFactor(db: Db, userId: number): Promise<void> {
  await db.transaction().execute(async (transaction) => {
    await transaction.deleteFrom('two_factor').where('user_id', '=', userId).execute();
    await transaction.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
    await transaction.deleteFrom('two_factor_challenges').where('user_id', '=', userId).execute();
    await transaction.updateTable('users').set({ two_factor_enabled: 0 }).where('id', '=', userId).execute();
  });
}
