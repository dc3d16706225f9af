import type { FastifyBaseLogger } from 'fastify';
import { larkRedirectUri } from '@gatehouse/shared';
import { z } from 'zod';
import type { AppContext } from '../context';
import { fail } from '../http/envelope';
import type { ExternalIdentity } from './external-sign-in';
import { ProviderError, callProvider } from './provider-request';

// https://open.feishu.cn/document/authentication-management/access-token/get-user-access-token:
// `code` 0 with `access_token`, else a non-zero `code` with `error` / `error_description`.
const tokenAnswerSchema = z.object({
  code: z.number(),
  access_token: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
});

// https://open.feishu.cn/document/server-docs/authentication-management/login-state-management/get
const userInfoAnswerSchema = z.object({
  code: z.number(),
  msg: z.string().optional(),
  data: z.object({ open_id: z.string().min(1), name: z.string().optional() }).optional(),
});

export function isLarkConfigured(context: AppContext): boolean {
  const { options } = context;
  return options.get('LarkClientId') !== '' && options.get('LarkClientSecret') !== '';
}

/**
 * Exchanges a Lark (Feishu) OAuth code for the Lark user. `redirectBase` must be the address the console
 * used in the authorise URL: Lark compares redirect_uri strictly.
 */
export async function fetchLarkIdentity(
  context: AppContext,
  code: string,
  redirectBase: string,
  log: FastifyBaseLogger,
): Promise<ExternalIdentity> {
  const { config, options } = context;
  const unreachable = (error: unknown) => {
    if (!(error instanceof ProviderError)) throw error;
    log.error({ err: error }, 'Lark OAuth call failed');
    return fail('Could not reach Lark; please retry later');
  };
  const tokenAnswer = await callProvider('Lark', `${config.larkApiBaseUrl}/open-apis/authen/v2/oauth/token`, {
    json: {
      grant_type: 'authorization_code',
      client_id: options.get('LarkClientId'),
      client_secret: options.get('LarkClientSecret'),
      code,
      redirect_uri: larkRedirectUri(redirectBase),
    },
  }).catch(unreachable);
  const token = tokenAnswerSchema.safeParse(tokenAnswer.body);
  if (!token.success) {
    log.error({ statusCode: tokenAnswer.statusCode }, 'Lark token exchange answered an unexpected body');
    fail('Lark sign-in failed; please retry later');
  }
  if (token.data.code !== 0 || !token.data.access_token) {
    fail(
      `Lark sign-in failed: ${token.data.error_description || token.data.error || `code ${token.data.code}`}`,
    );
  }
  const userAnswer = await callProvider('Lark', `${config.larkApiBaseUrl}/open-apis/authen/v1/user_info`, {
    headers: { authorization: `Bearer ${token.data.access_token}` },
  }).catch(unreachable);
  const user = userInfoAnswerSchema.safeParse(userAnswer.body);
  if (!user.success || user.data.code !== 0 || !user.data.data) {
    log.error({ statusCode: userAnswer.statusCode }, 'Lark user lookup failed');
    fail(`Lark sign-in failed: ${(user.success && user.data.msg) || 'the Lark account could not be read'}`);
  }
  return {
    id: user.data.data.open_id,
    usernameBase: 'lark_',
    displayName: user.data.data.name || 'Lark User',
  };
}
