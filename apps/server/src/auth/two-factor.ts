import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { UserStatus, nowSeconds, type Envelope, type TwoFactorChallenge, type User } from '@gatehouse/shared';
import type { AppContext } from '../context';
import type { UserRow } from '../db/schema';
import { startSession } from '../http/auth';
import { fail, ok } from '../http/envelope';
import { findUserById, toPublicUser } from '../users/user-repository';
import { checkTotpCode, claimTotpStep, findTwoFactor, spendRecoveryCode } from './two-factor-store';
import { setSignedCookie } from '../http/signed-cookie';

/**
 * The one place a sign-in becomes a session. Password, GitHub, Lark and WeChat sign-ins (and any sign-in
 * added later) end in `completeSignIn`: a user without two-factor sign-in gets the session at once; a user
 * with it gets a challenge instead (a random token in a short-lived cookie, its hash in
 * two_factor_challenges), and the session only from `completeTwoFactorSignIn` with a valid code.
 */
export const TWO_FACTOR_COOKIE = 'gatehouse_2fa';
const COOKIE_PATH = '/api/user/login';
const CHALLENGE_SECONDS = 5 * 60;
/** wrong codes one challenge takes before the sign-in must start again (the login rate limit counts too) */
const CHALLENGE_MAX_FAILURES = 5;

const SIGN_IN_EXPIRED = 'The sign-in has expired; please sign in again';
const WRONG_CODE = 'The code is wrong or has already been used';
const UNREADABLE_SECRET =
  'Your two-factor secret cannot be read on this server (its SESSION_SECRET changed); use a recovery code, or ask the administrator to reset your two-factor sign-in';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Checks a code from the authenticator app (6 digits, each time step once) or a recovery code (each once).
 * False for a wrong or replayed code; refuses outright when the secret cannot be opened.
 */
export async function verifySecondFactor(
  context: AppContext,
  userId: number,
  code: string,
): Promise<boolean> {
  const twoFactor = await findTwoFactor(context.db, userId);
  if (!twoFactor || !twoFactor.is_enabled) return false;
  if (/^\d{6}$/.test(code.replace(/\s/g, ''))) {
    const check = checkTotpCode(context.config, twoFactor.secret, code);
    if (check.kind === 'unreadable') fail(UNREADABLE_SECRET);
    return check.kind === 'accepted' && (await claimTotpStep(context.db, userId, check.step));
  }
  return spendRecoveryCode(context.db, userId, code);
}

/** Ends a sign-in for a user whose first step passed: a session, or a challenge for the second factor. */
export async function completeSignIn(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
): Promise<Envelope<User | TwoFactorChallenge>> {
  if (!user.two_factor_enabled) {
    await startSession(context, request, reply, user);
    return ok(toPublicUser(user), 'Login successful!');
  }
  const token = randomBytes(32).toString('base64url');
  const now = nowSeconds();
  await context.db.deleteFrom('two_factor_challenges').where('expires_at', '<=', now).execute();
  await context.db
    .insertInto('two_factor_challenges')
    .values({
      id: hashToken(token),
      user_id: user.id,
      session_version: user.session_version,
      expires_at: now + CHALLENGE_SECONDS,
    })
    .execute();
  setSignedCookie(request, reply, {
    name: TWO_FACTOR_COOKIE,
    value: token,
    path: COOKIE_PATH,
    maxAgeSeconds: CHALLENGE_SECONDS,
  });
  return ok({ require_2fa: true }, 'Enter the code from your authenticator app');
}

function challengeTokenOf(request: FastifyRequest): string | null {
  const raw = request.cookies[TWO_FACTOR_COOKIE];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value ? unsigned.value : null;
}

/** POST /api/user/login/2fa: the second step. A valid code ends the challenge and starts the session. */
export async function completeTwoFactorSignIn(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  code: string,
): Promise<Envelope<User>> {
  const { db } = context;
  const token = challengeTokenOf(request);
  if (!token) fail(SIGN_IN_EXPIRED);
  const id = hashToken(token);
  const endChallenge = async () => {
    reply.clearCookie(TWO_FACTOR_COOKIE, { path: COOKIE_PATH });
    const result = await db.deleteFrom('two_factor_challenges').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  };
  const challenge = await db
    .selectFrom('two_factor_challenges')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!challenge || challenge.expires_at <= nowSeconds()) {
    await endChallenge();
    fail(SIGN_IN_EXPIRED);
  }
  const user = await findUserById(db, challenge.user_id);
  // A password change, ban or two-factor reset since the first step ends the waiting sign-in too.
  if (!user || user.session_version !== challenge.session_version || !user.two_factor_enabled) {
    await endChallenge();
    fail(SIGN_IN_EXPIRED);
  }
  if (user.status !== UserStatus.enabled) {
    await endChallenge();
    fail('This user has been banned');
  }
  if (!(await verifySecondFactor(context, user.id, code))) {
    if (challenge.failed_attempts + 1 >= CHALLENGE_MAX_FAILURES) {
      await endChallenge();
      fail('Too many wrong codes; please sign in again');
    }
    await db
      .updateTable('two_factor_challenges')
      .set((update) => ({ failed_attempts: update('failed_attempts', '+', 1) }))
      .where('id', '=', id)
      .execute();
    fail(WRONG_CODE);
  }
  // The challenge works once: of two requests racing with two valid codes, only one gets the session.
  if (!(await endChallenge())) fail(SIGN_IN_EXPIRED);
  await startSession(context, request, reply, user);
  return ok(toPublicUser(user), 'Login successful!');
}
