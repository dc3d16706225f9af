import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { oauthCallbackQuerySchema, wechatCodeQuerySchema } from '@gatehouse/shared';
import type { AppContext } from '../context';
import { createGuards, currentUser, loadUser } from '../http/auth';
import { fail, ok } from '../http/envelope';
import { parseWith } from '../http/validate';
import {
  bindExternalAccount,
  signInWithExternalAccount,
  type ExternalAccountColumn,
  type ExternalIdentity,
} from './external-sign-in';
import { fetchGitHubIdentity } from './github-oauth';
import { fetchLarkIdentity, isLarkConfigured } from './lark-oauth';
import { consumeOAuthState, issueOAuthState } from './oauth-state';
import { publicAddress } from './public-address';
import { fetchWeChatIdentity } from './wechat-auth';

/** GitHub, Lark and WeChat sign-in and binding (/api/oauth/*). */
export function registerOAuthRoutes(app: FastifyInstance, context: AppContext): void {
  const { options } = context;
  const guards = createGuards(context);

  app.get('/api/oauth/state', { config: { changesState: true } }, async (request, reply) =>
    ok(await issueOAuthState(context, request, reply)),
  );

  /** A signed-in user binds the account (message "bind"); anyone else signs in with it. */
  async function completeOAuth(
    request: FastifyRequest,
    reply: FastifyReply,
    column: ExternalAccountColumn,
    identity: ExternalIdentity,
  ) {
    const user = await loadUser(context, request);
    if (user) return ok(await bindExternalAccount(context, user, column, identity), 'bind');
    return signInWithExternalAccount(context, request, reply, column, identity);
  }

  app.get('/api/oauth/github', { config: { changesState: true } }, async (request, reply) => {
    if (!options.getBoolean('GitHubOAuthEnabled')) {
      fail('The administrator has not enabled sign-in and registration with GitHub');
    }
    const { code, state } = parseWith(oauthCallbackQuerySchema, request.query);
    await consumeOAuthState(context, request, reply, state);
    const identity = await fetchGitHubIdentity(context, code, request.log);
    return completeOAuth(request, reply, 'github_id', identity);
  });

  app.get('/api/oauth/lark', { config: { changesState: true } }, async (request, reply) => {
    if (!isLarkConfigured(context)) {
      fail('The administrator has not enabled sign-in and registration with Lark');
    }
    // Lark checks the redirect_uri of the exchange against the one the console sent the user with.
    const redirectBase = publicAddress(context);
    const { code, state } = parseWith(oauthCallbackQuerySchema, request.query);
    await consumeOAuthState(context, request, reply, state);
    const identity = await fetchLarkIdentity(context, code, redirectBase, request.log);
    return completeOAuth(request, reply, 'lark_id', identity);
  });

  const assertWeChatEnabled = () => {
    if (!options.getBoolean('WeChatAuthEnabled')) {
      fail('The administrator has not enabled sign-in and registration with WeChat');
    }
  };

  app.get('/api/oauth/wechat', { config: { changesState: true } }, async (request, reply) => {
    assertWeChatEnabled();
    const { code } = parseWith(wechatCodeQuerySchema, request.query);
    const identity = await fetchWeChatIdentity(context, code, request.log);
    return signInWithExternalAccount(context, request, reply, 'wechat_id', identity);
  });

  app.get(
    '/api/oauth/wechat/bind',
    { preHandler: guards.user, config: { changesState: true } },
    async (request) => {
      assertWeChatEnabled();
      const { code } = parseWith(wechatCodeQuerySchema, request.query);
      const identity = await fetchWeChatIdentity(context, code, request.log);
      const user = await bindExternalAccount(context, currentUser(request), 'wechat_id', identity);
      return ok(user, 'WeChat account bound successfully!');
    },
  );
}
