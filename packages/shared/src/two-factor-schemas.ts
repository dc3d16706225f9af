import { z } from 'zod';

/** How many recovery codes a user gets at a time; each works once. */
export const RECOVERY_CODE_COUNT = 10;

/**
 * The answer refusing an admin call while `TwoFactorRequiredForAdmins` is on and the admin has not turned
 * two-factor sign-in on (HTTP 403). The console recognises it and leads the admin to Personal settings.
 */
export const TWO_FACTOR_ENROLMENT_REQUIRED_MESSAGE =
  'Administrators must turn on two-factor sign-in first: open Settings → Personal settings';

/** A code from the authenticator app (6 digits) or a recovery code; spaces and dashes are the user's own. */
export const twoFactorCodeSchema = z
  .string({ error: 'code: enter the 6-digit code from your authenticator app or a recovery code' })
  .trim()
  .min(1, 'code: enter the 6-digit code from your authenticator app or a recovery code')
  .max(64, 'code is too long');

/** POST /api/user/login/2fa, /api/user/2fa/confirm and /api/user/2fa/recovery_codes. */
export const twoFactorCodeRequestSchema = z.object({ code: twoFactorCodeSchema });
export type TwoFactorCodeRequest = z.infer<typeof twoFactorCodeRequestSchema>;

/** POST /api/user/2fa/disable: a current code or a recovery code, and the password when the account has one. */
export const twoFactorDisableRequestSchema = z.object({
  code: twoFactorCodeSchema,
  password: z.string().max(256, 'password is too long').optional().default(''),
});
export type TwoFactorDisableRequest = z.input<typeof twoFactorDisableRequestSchema>;

/**
 * What a sign-in answers (success:true) when the password, OAuth or chat-app step passed but the account has
 * two-factor sign-in on: no session yet; POST /api/user/login/2fa with a code within five minutes.
 */
export interface TwoFactorChallenge {
  require_2fa: true;
}

export function isTwoFactorChallenge(data: unknown): data is TwoFactorChallenge {
  return (
    typeof data === 'object' && data !== null && (data as { require_2fa?: unknown }).require_2fa === true
  );
}

/** GET /api/user/2fa: the signed-in user's own state. */
export interface TwoFactorStatus {
  enabled: boolean;
  /** an enrolment was started and waits for its first code */
  pending: boolean;
  recovery_codes_left: number;
  /** the account's password is needed to turn two-factor sign-in off */
  requires_password: boolean;
}

/** POST /api/user/2fa/enroll: the new secret, for the authenticator app (QR code) or typed in by hand. */
export interface TwoFactorEnrolment {
  /** Base32, the form authenticator apps take when typed in */
  secret: string;
  /** otpauth://totp/… (SHA-1, 6 digits, 30 seconds) */
  uri: string;
  /** the URI as a QR code, a data: URL of a PNG image */
  qr_code: string;
}

/** Answered once, when two-factor sign-in is turned on and when the codes are made anew. */
export interface RecoveryCodes {
  recovery_codes: string[];
}
