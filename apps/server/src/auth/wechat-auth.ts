import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context';
import { fail } from '../http/envelope';
import type { ExternalIdentity } from './external-sign-in';
import { ProviderError, callProvider } from './provider-request';

// The wechat-server protocol: GET /api/wechat/user?code=… with the server token in Authorization,
// answering {success, message, data: <openid>}.
const wechatAnswerSchema = z.object({
  success: z.boolean(),
  message: z.string().optional().default(''),
  data: z.string().optional().default(''),
});

/** Asks the configured WeChat server which WeChat user the code the user typed belongs to. */
export async function fetchWeChatIdentity(
  context: AppContext,
  code: string,
  log: FastifyBaseLogger,
): Promise<ExternalIdentity> {
  const { options } = context;
  const serverAddress = options.get('WeChatServerAddress').trim().replace(/\/+$/, '');
  if (serverAddress === '') {
    fail('The WeChat server is not configured; please contact the administrator');
  }
  let url: URL;
  try {
    url = new URL(`${serverAddress}/api/wechat/user`);
  } catch {
    fail('The WeChat server address is invalid; please contact the administrator');
  }
  url.searchParams.set('code', code);
  const answer = await callProvider('WeChat server', url.toString(), {
    headers: { authorization: options.get('WeChatServerToken') },
  }).catch((error: unknown) => {
    if (!(error instanceof ProviderError)) throw error;
    log.error({ err: error }, 'WeChat server call failed');
    return fail('Could not reach the WeChat server; please retry later');
  });
  const result = wechatAnswerSchema.safeParse(answer.body);
  if (!result.success) {
    log.error({ statusCode: answer.statusCode }, 'WeChat server answered an unexpected body');
    fail('The WeChat server answered unexpectedly; please contact the administrator');
  }
  if (!result.data.success) fail(result.data.message || 'The verification code is wrong or has expired');
  if (result.data.data === '') fail('The verification code is wrong or has expired');
  return { id: result.data.data, usernameBase: 'wechat_', displayName: 'WeChat User' };
}
