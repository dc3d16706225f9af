import { randomInt } from 'node:crypto';
import { startStandInServer, type StandInServer } from './stand-in-server';

export interface FakeWeChat extends StandInServer {
  /** the code the official account would send this WeChat user to type into the console */
  issueCode(openid: string): string;
}

/**
 * A wechat-server: GET /api/wechat/user?code=… with the server token in Authorization, answering
 * `{success, message, data: <openid>}`. Codes work once.
 */
export async function startFakeWeChat(serverToken: string): Promise<FakeWeChat> {
  const codes = new Map<string, string>();
  const server = await startStandInServer((request) => {
    if (request.method !== 'GET' || request.path !== '/api/wechat/user') {
      return { status: 404, json: { success: false, message: 'not found' } };
    }
    if (request.headers.authorization !== serverToken) {
      return { json: { success: false, message: 'No permission: the token is invalid' } };
    }
    const code = request.query.get('code') ?? '';
    const openid = codes.get(code);
    codes.delete(code);
    if (!openid) return { json: { success: false, message: 'Invalid or expired verification code' } };
    return { json: { success: true, message: '', data: openid } };
  });
  return {
    ...server,
    issueCode(openid) {
      const code = String(randomInt(100000, 999999));
      codes.set(code, openid);
      return code;
    },
  };
}
