import type { FastifyInstance } from 'fastify';
import { oauthCallbackQuerySchema } from '@gatehouse/shared';
import type { AppContext } from '../context';
import { loadUser } from '../http/auth';
import { ok } from '../http/envelope';
import { parseWith } from '../http/validate';
import { bindExternalAccount, signInWithExternalAccount } from './external-sign-in';
import { finishOidcSignIn, startOidcSignIn } from './oidc-sign-in';

/**
 * OpenID Connect sign-in and binding. Both routes write (a state, a session), so the cross-site guard refuses
 * them from other sites; the provider sends the browser back to the console's /oauth/oidc page, which calls
 * the callback from our own origin.
 */
export function registerOidcRoutes(app: FastifyInstance, context: AppContext): void {
  app.get('/api/oauth/oidc/start', { config: { changesState: true } }, async (request, reply) =>
    ok(await startOidcSignIn(context, request, reply)),
  );

  app.get('/api/oauth/oidc', { config: { changesState: true } }, async (request, reply) => {
    const { code, state } = parseWith(oauthCallbackQuerySchema, request.query);
    const identity = await finishOidcSignIn(context, request, reply, code, state);
    // The state was issued to this user when signed in: a signed-in user binds, anyone else signs in.
    const user = await loadUser(context, request);
    if (user) return ok(await bindExternalAccount(context, user, 'oidc_id', identity), 'bind');
    return signInWithExternalAccount(context, request, reply, 'oidc_id', identity);
  });
}
