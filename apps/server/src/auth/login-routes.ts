import type { FastifyInstance } from 'fastify';
import { UserStatus, loginRequestSchema, registerRequestSchema } from '@gatehouse/shared';
import type { AppContext } from '../context';
import type { UserRow } from '../db/schema';
import { endSession } from '../http/auth';
import { fail, ok } from '../http/envelope';
import { parseWith } from '../http/validate';
import { createUserAccount } from '../users/register-user';
import { findUserByUsername, findUsersByLogin } from '../users/user-repository';
import { hashPassword, verifyPassword } from './password';
import { assertEmailAvailable, assertEmailDomainAllowed } from './email-rules';
import { verifyTurnstile } from './turnstile';
import { completeSignIn } from './two-factor';

// Compared against when the user does not exist, so a wrong name costs as long as a wrong password.
const decoyHash = hashPassword('decoy-password-for-timing');

export function registerLoginRoutes(app: FastifyInstance, context: AppContext): void {
  const { db, options } = context;

  app.post('/api/user/login', async (request, reply) => {
    if (!options.getBoolean('PasswordLoginEnabled')) {
      fail('The administrator has turned off password login; please use another login method');
    }
    const input = parseWith(loginRequestSchema, request.body);
    const candidates = await findUsersByLogin(db, input.username);
    let user: UserRow | undefined;
    for (const candidate of candidates) {
      if (await verifyPassword(input.password, candidate.password)) {
        user = candidate;
        break;
      }
    }
    if (candidates.length === 0) await verifyPassword(input.password, await decoyHash);
    if (!user) fail('Wrong username or password');
    if (user.status !== UserStatus.enabled) fail('This user has been banned');
    // A session now, or the second step first when the user has two-factor sign-in on.
    return completeSignIn(context, request, reply, user);
  });

  app.get('/api/user/logout', { config: { changesState: true } }, async (request, reply) => {
    await endSession(context, request, reply);
    return ok();
  });

  app.post('/api/user/register', async (request) => {
    if (!options.getBoolean('RegisterEnabled'))
      fail('New user registration is turned off by the administrator');
    if (!options.getBoolean('PasswordRegisterEnabled')) {
      fail('Registration by password is turned off by the administrator; please use another sign-up method');
    }
    const input = parseWith(registerRequestSchema, request.body);
    await verifyTurnstile(context, request);
    if (input.password2 !== undefined && input.password2 !== input.password) {
      fail('The two passwords entered do not match');
    }
    let email = '';
    if (options.getBoolean('EmailVerificationEnabled')) {
      // Checked before the one-time code is spent, so a taken name does not cost the user the code.
      if (await findUserByUsername(db, input.username)) fail('Username is already taken');
      if (!input.email || !input.verification_code)
        fail('Please enter your e-mail address and verification code');
      email = input.email.toLowerCase();
      assertEmailDomainAllowed(options, email);
      if (!(await context.verificationCodes.consume('register', email, input.verification_code))) {
        fail('The verification code is wrong or has expired');
      }
      await assertEmailAvailable(db, email);
    }
    await createUserAccount(context, { ...input, email });
    return ok(undefined, 'Registration successful!');
  });
}
