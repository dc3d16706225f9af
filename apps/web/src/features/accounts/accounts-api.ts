import type { TwoFactorChallenge, User } from '@gatehouse/shared';
import { api, ApiError, showApiError } from '../../api/client';

export type OAuthCallbackProvider = 'github' | 'lark' | 'oidc';

/** A one-time state for the provider's page; the server also sets it in a cookie of this browser. */
export const getOAuthState = () => api.get<string>('/api/oauth/state');

/**
 * OIDC sign-in or binding: the server keeps the state, PKCE verifier and nonce, and answers the provider's
 * authorisation URL to send this window to.
 */
export const getOidcAuthorizeUrl = () => api.get<string>('/api/oauth/oidc/start');

export type OAuthCallbackResult = { isBinding: true } | { isBinding: false; user: User | TwoFactorChallenge };

/**
 * Hands the provider's code to the server: the message `bind` means a signed-in user bound the
 * account; otherwise the answer is the user now logged in. Errors are shown, then thrown.
 */
export async function completeOAuth(
  provider: OAuthCallbackProvider,
  code: string,
  state: string,
): Promise<OAuthCallbackResult> {
  const envelope = await api.request<User | TwoFactorChallenge>('GET', `/api/oauth/${provider}`, {
    params: { code, state },
  });
  if (!envelope.success) {
    const error = new ApiError('failure', envelope.message, envelope.message, 200);
    showApiError(error);
    throw error;
  }
  return envelope.message === 'bind'
    ? { isBinding: true }
    : { isBinding: false, user: envelope.data as User | TwoFactorChallenge };
}

export const loginWithWeChat = (code: string) =>
  api.get<User | TwoFactorChallenge>('/api/oauth/wechat', { params: { code } });

export const bindWeChat = (code: string) => api.get<unknown>('/api/oauth/wechat/bind', { params: { code } });

export const bindEmail = (email: string, code: string) =>
  api.get<null>('/api/oauth/email/bind', { params: { email, code } });

/** `turnstile` is the human-check token; empty while the check is off. */
export const requestPasswordReset = (email: string, turnstile = '') =>
  api.get<null>('/api/reset_password', { params: { email, turnstile } });

/** Spends the mailed link's token; the answer is the new random password. */
export const confirmPasswordReset = (email: string, token: string) =>
  api.post<string>('/api/user/reset', { email, token });
