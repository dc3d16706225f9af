import type { FastifyInstance, FastifyRequest } from 'fastify';
import { emailBindQuerySchema, emailRequestQuerySchema, passwordResetRequestSchema } from '@gatehouse/shared';
import type { AppContext } from '../context';
import { createGuards, currentUser } from '../http/auth';
import { fail, ok } from '../http/envelope';
import { parseWith } from '../http/validate';
import { assertEmailAvailable, assertEmailDomainAllowed, findUserByEmail } from './email-rules';
import { escapeHtml, sendMail, type Mail } from './mailer';
import { hashPassword, randomText } from './password';
import { publicAddress } from './public-address';
import { verifyTurnstile } from './turnstile';

const NEW_PASSWORD_LENGTH = 12;

/** A plain-text mail with the same text as simple HTML paragraphs (links made clickable). */
function composeMail(to: string, subject: string, paragraphs: string[]): Mail {
  const html = paragraphs
    .map((paragraph) =>
      escapeHtml(paragraph).replace(/(https?:\/\/[^\s<]+)/g, (link) => `<a href="${link}">${link}</a>`),
    )
    .map((paragraph) => `<p>${paragraph}</p>`)
    .join('\n');
  return { to, subject, text: paragraphs.join('\n\n'), html };
}

/** E-mail codes, password reset by mailed link, and binding an address to the signed-in user. */
export function registerEmailRoutes(app: FastifyInstance, context: AppContext): void {
  const { db, options, verificationCodes } = context;
  const guards = createGuards(context);
  const validMinutes = Math.round(verificationCodes.ttlMs / 60_000);
  const systemName = () => options.get('SystemName');

  // Sends a code whoever asks: whether the address is in use is only told after the code proves it
  // (registration and binding), so this answer reveals nothing.
  app.get('/api/verification', { config: { changesState: true } }, async (request) => {
    const { email } = parseWith(emailRequestQuerySchema, request.query);
    await verifyTurnstile(context, request);
    assertEmailDomainAllowed(options, email);
    const code = await verificationCodes.issue('register', email);
    const mail = composeMail(email, `${systemName()} e-mail verification`, [
      `Hello, you are verifying this e-mail address for ${systemName()}.`,
      `Your verification code is: ${code}`,
      `It is valid for ${validMinutes} minutes. If you did not ask for it, you can ignore this mail.`,
    ]);
    await sendOrRevoke(request, mail, () => verificationCodes.revoke('register', email));
    return ok(undefined, 'Verification code sent successfully, please check your mailbox!');
  });

  // Every well-formed address gets the same answer and a mail; only an address in use gets a link.
  app.get('/api/reset_password', { config: { changesState: true } }, async (request) => {
    const { email } = parseWith(emailRequestQuerySchema, request.query);
    // Asked before anything else, so the refusal is the same whether the address is in use or not.
    const address = publicAddress(context);
    await verifyTurnstile(context, request);
    const user = await findUserByEmail(db, email);
    const subject = `${systemName()} password reset`;
    if (user) {
      const token = await verificationCodes.issue('reset', email);
      const link = new URL(`${address}/user/reset`);
      link.searchParams.set('email', email);
      link.searchParams.set('token', token);
      const mail = composeMail(email, subject, [
        `Hello, a password reset was requested for your ${systemName()} account ${user.username}.`,
        `Open this link to reset the password: ${link.toString()}`,
        `The link works once, within ${validMinutes} minutes. If you did not ask for it, ignore this mail: your password stays as it is.`,
      ]);
      await sendOrRevoke(request, mail, () => verificationCodes.revoke('reset', email));
    } else {
      const mail = composeMail(email, subject, [
        `Hello, a password reset was requested for this address at ${systemName()}, but no account uses it.`,
        'If you did not ask for it, you can ignore this mail.',
      ]);
      await sendMail(options, mail, request.log);
    }
    return ok(undefined, 'Reset email sent successfully, please check your mailbox!');
  });

  app.post('/api/user/reset', async (request) => {
    const { email, token } = parseWith(passwordResetRequestSchema, request.body);
    const invalid = 'The reset link is invalid or has expired';
    if (!(await verificationCodes.consume('reset', email, token))) fail(invalid);
    const user = await findUserByEmail(db, email);
    if (!user) fail(invalid);
    const password = randomText(NEW_PASSWORD_LENGTH);
    // A new password ends every session of the account, including any an intruder held.
    await db
      .updateTable('users')
      .set({ password: await hashPassword(password), session_version: user.session_version + 1 })
      .where('id', '=', user.id)
      .execute();
    return ok(password, 'Password reset successfully; copy your new password');
  });

  app.get(
    '/api/oauth/email/bind',
    { preHandler: guards.user, config: { changesState: true } },
    async (request) => {
      const user = currentUser(request);
      const { email, code } = parseWith(emailBindQuerySchema, request.query);
      assertEmailDomainAllowed(options, email);
      if (!(await verificationCodes.consume('bind', email, code))) {
        fail('The verification code is wrong or has expired');
      }
      await assertEmailAvailable(db, email, user.id);
      await db.updateTable('users').set({ email }).where('id', '=', user.id).execute();
      return ok(undefined, 'Email account bound successfully!');
    },
  );

  async function sendOrRevoke(
    request: FastifyRequest,
    mail: Mail,
    revoke: () => Promise<void>,
  ): Promise<void> {
    try {
      await sendMail(options, mail, request.log);
    } catch (error) {
      // A code nobody received must not stay valid. The mail error is the one the user needs to see.
      await revoke().catch((revokeError: unknown) =>
        request.log.error({ err: revokeError }, 'could not withdraw a code whose mail failed'),
      );
      throw error;
    }
  }
}
