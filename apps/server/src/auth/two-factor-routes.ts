import type { FastifyInstance } from 'fastify';
import {
  twoFactorCodeRequestSchema,
  twoFactorDisableRequestSchema,
  type RecoveryCodes,
  type TwoFactorStatus,
} from '@gatehouse/shared';
import type { AppContext } from '../context';
import type { UserRow } from '../db/schema';
import { createGuards, currentUser } from '../http/auth';
import { fail, ok } from '../http/envelope';
import { parseId, parseWith } from '../http/validate';
import { findUserById } from '../users/user-repository';
import { auditActorOf } from '../audit/audit-actor';
import { recordAudit } from '../audit/audit-log';
import { verifyPassword } from './password';
import { completeTwoFactorSignIn, verifySecondFactor } from './two-factor';
import {
  checkTotpCode,
  countRecoveryCodes,
  enableTwoFactor,
  findTwoFactor,
  removeTwoFactor,
  replaceRecoveryCodes,
  startEnrolment,
} from './two-factor-store';

const WRONG_CODE = 'The code is wrong or has already been used';
const NOT_ENABLED = 'Two-factor sign-in is not on for this account';

/**
 * An account made by a GitHub, Lark, WeChat or OIDC sign-in has a random password its owner never saw; every
 * other account signed up or was created with one, and must give it to turn two-factor sign-in off.
 */
const hasKnownPassword = (user: UserRow) =>
  !user.github_id && !user.lark_id && !user.wechat_id && !user.oidc_id;

/** Two-factor sign-in: the second sign-in step, the user's own enrolment, and root's reset of another's. */
export function registerTwoFactorRoutes(app: FastifyInstance, context: AppContext): void {
  const { db, config, options } = context;
  const guards = createGuards(context);

  app.post('/api/user/login/2fa', async (request, reply) => {
    const { code } = parseWith(twoFactorCodeRequestSchema, request.body);
    return completeTwoFactorSignIn(context, request, reply, code);
  });

  app.get('/api/user/2fa', { preHandler: guards.user }, async (request) => {
    const user = currentUser(request);
    const twoFactor = await findTwoFactor(db, user.id);
    const status: TwoFactorStatus = {
      enabled: Boolean(twoFactor?.is_enabled),
      pending: twoFactor !== undefined && !twoFactor.is_enabled,
      recovery_codes_left: twoFactor?.is_enabled ? await countRecoveryCodes(db, user.id) : 0,
      requires_password: hasKnownPassword(user),
    };
    return ok(status);
  });

  app.post('/api/user/2fa/enroll', { preHandler: guards.user }, async (request) => {
    const user = currentUser(request);
    if (user.two_factor_enabled) fail('Two-factor sign-in is already on; turn it off first to enrol again');
    const issuer = options.get('SystemName') || 'Gatehouse';
    return ok(await startEnrolment(db, config, user, issuer));
  });

  app.post('/api/user/2fa/confirm', { preHandler: guards.user }, async (request) => {
    const user = currentUser(request);
    const { code } = parseWith(twoFactorCodeRequestSchema, request.body);
    const twoFactor = await findTwoFactor(db, user.id);
    if (!twoFactor || twoFactor.is_enabled) fail('Start the two-factor enrolment first');
    const check = checkTotpCode(config, twoFactor.secret, code);
    if (check.kind === 'unreadable') fail('The enrolment cannot be read any more; please start it again');
    if (check.kind === 'wrong') fail(WRONG_CODE);
    const codes: RecoveryCodes = { recovery_codes: await enableTwoFactor(db, user.id, check.step) };
    return ok(codes, 'Two-factor sign-in is on. Keep the recovery codes somewhere safe: each works once');
  });

  app.post('/api/user/2fa/disable', { preHandler: guards.user }, async (request) => {
    const user = currentUser(request);
    const input = parseWith(twoFactorDisableRequestSchema, request.body);
    if (!user.two_factor_enabled) fail(NOT_ENABLED);
    if (hasKnownPassword(user)) {
      if (!input.password) fail('password: enter your password to turn two-factor sign-in off');
      if (!(await verifyPassword(input.password, user.password))) fail('Wrong password');
    }
    if (!(await verifySecondFactor(context, user.id, input.code))) fail(WRONG_CODE);
    await removeTwoFactor(db, user.id);
    return ok(undefined, 'Two-factor sign-in is off');
  });

  app.post('/api/user/2fa/recovery_codes', { preHandler: guards.user }, async (request) => {
    const user = currentUser(request);
    const { code } = parseWith(twoFactorCodeRequestSchema, request.body);
    if (!user.two_factor_enabled) fail(NOT_ENABLED);
    if (!(await verifySecondFactor(context, user.id, code))) fail(WRONG_CODE);
    const codes: RecoveryCodes = { recovery_codes: await replaceRecoveryCodes(db, user.id) };
    return ok(codes, 'New recovery codes made; the old ones no longer work');
  });

  // Root only: for a user who lost both the authenticator and the recovery codes.
  app.delete<{ Params: { id: string } }>(
    '/api/user/:id(^\\d+$)/2fa',
    { preHandler: guards.root },
    async (request) => {
      const user = await findUserById(db, parseId(request.params.id));
      if (!user) fail('User does not exist');
      if (!user.two_factor_enabled && !(await findTwoFactor(db, user.id))) fail(NOT_ENABLED);
      await removeTwoFactor(db, user.id);
      await recordAudit(db, auditActorOf(request), {
        action: 'user.two_factor_reset',
        target: { type: 'user', id: user.id, name: user.username },
        changes: [
          { field: 'two_factor', before: user.two_factor_enabled ? 'on' : 'enrolling', after: 'off' },
        ],
      });
      return ok(undefined, `Two-factor sign-in of ${user.username} was reset`);
    },
  );
}
