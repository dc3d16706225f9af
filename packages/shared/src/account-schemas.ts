import { z } from 'zod';

/** The console's verification and reset buttons wait this long before sending again. */
export const VERIFICATION_RESEND_COOLDOWN_SECONDS = 30;
/** A chat-app (WeChat) login code is valid for three minutes. */
export const WECHAT_CODE_VALIDITY_SECONDS = 180;

export const emailSchema = z
  .string({ error: 'Please enter a valid e-mail address' })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'Please enter a valid e-mail address' }).max(255, 'E-mail address is too long'));

/** The Turnstile token travels in the query string; empty when the check is off. */
const turnstileSchema = z.string().trim().optional().default('');

/** GET /api/verification and GET /api/reset_password */
export const emailRequestQuerySchema = z.object({
  email: emailSchema,
  turnstile: turnstileSchema,
});
export type EmailRequestQuery = z.infer<typeof emailRequestQuerySchema>;

/** POST /api/user/reset: the two values of the mailed link. */
export const passwordResetRequestSchema = z.object({
  email: emailSchema,
  token: z
    .string({ error: 'The reset link is invalid or has expired' })
    .trim()
    .min(1, 'The reset link is invalid or has expired'),
});
export type PasswordResetRequest = z.infer<typeof passwordResetRequestSchema>;

/** GET /api/oauth/email/bind */
export const emailBindQuerySchema = z.object({
  email: emailSchema,
  code: z
    .string({ error: 'Please enter the verification code' })
    .trim()
    .min(1, 'Please enter the verification code'),
});
export type EmailBindQuery = z.infer<typeof emailBindQuerySchema>;

/** GET /api/oauth/github and GET /api/oauth/lark, as the provider redirects back. */
export const oauthCallbackQuerySchema = z.object({
  code: z
    .string({ error: 'The authorization code is missing' })
    .trim()
    .min(1, 'The authorization code is missing'),
  state: z.string().trim().optional().default(''),
});
export type OAuthCallbackQuery = z.infer<typeof oauthCallbackQuerySchema>;

/** GET /api/oauth/wechat and GET /api/oauth/wechat/bind */
export const wechatCodeQuerySchema = z.object({
  code: z
    .string({ error: 'Please enter the verification code' })
    .trim()
    .min(1, 'Please enter the verification code'),
});
export type WeChatCodeQuery = z.infer<typeof wechatCodeQuerySchema>;

export const GITHUB_OAUTH_BASE_URL = 'https://github.com';

/**
 * Where the console sends the browser for GitHub sign-in; GitHub comes back to /oauth/github?code&state.
 * `baseUrl` is the status `github_oauth_base_url` (the server's GITHUB_OAUTH_BASE_URL), else github.com.
 */
export function buildGitHubAuthorizeUrl(
  clientId: string,
  state: string,
  baseUrl: string = GITHUB_OAUTH_BASE_URL,
): string {
  const query = queryString({ client_id: clientId, state, scope: 'user:email' });
  return `${baseUrl.replace(/\/+$/, '')}/login/oauth/authorize?${query}`;
}

/** The console page an OpenID Connect provider returns to; the server sends the same value with the code. */
export function oidcRedirectUri(serverAddress: string): string {
  return `${serverAddress.replace(/\/+$/, '')}/oauth/oidc`;
}

/** The callback Lark returns to; the server sends the same value when it exchanges the code. */
export function larkRedirectUri(serverAddress: string): string {
  return `${serverAddress.replace(/\/+$/, '')}/oauth/lark`;
}

/**
 * Lark's authorisation page (https://open.feishu.cn/document/authentication-management/access-token/obtain-oauth-code).
 * `serverAddress` is the status `server_address`, else the console's own origin.
 */
export function buildLarkAuthorizeUrl(clientId: string, serverAddress: string, state: string): string {
  const query = queryString({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: larkRedirectUri(serverAddress),
    state,
  });
  return `https://accounts.feishu.cn/open-apis/authen/v1/authorize?${query}`;
}

// This package runs in the browser and in Node without DOM or Node typings, so no URL class here.
function queryString(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join('&');
}
