import { randomBytes } from 'node:crypto';
import { readBody, startStandInServer, type StandInServer } from './stand-in-server';

export interface LarkUser {
  open_id: string;
  name: string;
}

export interface FakeLark extends StandInServer {
  /** a one-time authorization code for this user, issued for `redirectUri` */
  authorize(user: LarkUser, redirectUri: string): string;
}

/**
 * Lark's OAuth token endpoint (POST /open-apis/authen/v2/oauth/token, JSON) and user info
 * (GET /open-apis/authen/v1/user_info), as documented at open.feishu.cn.
 */
export async function startFakeLark(clientId: string, clientSecret: string): Promise<FakeLark> {
  const codes = new Map<string, { user: LarkUser; redirectUri: string }>();
  const tokens = new Map<string, LarkUser>();
  const server = await startStandInServer((request) => {
    if (request.method === 'POST' && request.path === '/open-apis/authen/v2/oauth/token') {
      const body = readBody(request);
      if (body.grant_type !== 'authorization_code') {
        return {
          status: 400,
          json: {
            code: 20036,
            error: 'unsupported_grant_type',
            error_description: 'The specified grant_type is not supported.',
          },
        };
      }
      if (body.client_id !== clientId || body.client_secret !== clientSecret) {
        return {
          status: 400,
          json: { code: 20002, error: 'invalid_client', error_description: 'The client secret is invalid.' },
        };
      }
      const grant = codes.get(body.code ?? '');
      codes.delete(body.code ?? '');
      if (!grant || grant.redirectUri !== body.redirect_uri) {
        return {
          status: 400,
          json: {
            code: 20003,
            error: 'invalid_grant',
            error_description:
              'The authorization code is not found. Please note that an authorization code can only be used once.',
          },
        };
      }
      const token = `u-${randomBytes(12).toString('hex')}`;
      tokens.set(token, grant.user);
      return {
        json: { code: 0, access_token: token, expires_in: 7200, token_type: 'Bearer', scope: '' },
      };
    }
    if (request.method === 'GET' && request.path === '/open-apis/authen/v1/user_info') {
      const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
      const user = tokens.get(token);
      if (!user) {
        return {
          json: { code: 20005, msg: 'The user access token passed is invalid. Please check the value' },
        };
      }
      return {
        json: {
          code: 0,
          msg: 'success',
          data: { ...user, en_name: user.name, union_id: `on-${user.open_id}`, tenant_key: 'tenant' },
        },
      };
    }
    return { status: 404, json: { code: 404, msg: 'not found' } };
  });
  return {
    ...server,
    authorize(user, redirectUri) {
      const code = randomBytes(16).toString('hex');
      codes.set(code, { user, redirectUri });
      return code;
    },
  };
}
