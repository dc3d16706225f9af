import { randomBytes } from 'node:crypto';
import { readBody, startStandInServer, type StandInServer } from './stand-in-server';

export interface FakeTurnstile extends StandInServer {
  /** a token the widget would put in the page after the visitor passed; single-use */
  passToken(): string;
}

/**
 * Cloudflare's siteverify: form POST of secret, response and remoteip, answering
 * `{success, "error-codes", challenge_ts, hostname}`; tokens verify once.
 */
export async function startFakeTurnstile(secret: string): Promise<FakeTurnstile> {
  const tokens = new Set<string>();
  const server = await startStandInServer((request) => {
    if (request.method !== 'POST')
      return { status: 405, json: { success: false, 'error-codes': ['bad-request'] } };
    const body = readBody(request);
    if (body.secret !== secret) return { json: { success: false, 'error-codes': ['invalid-input-secret'] } };
    const token = body.response ?? '';
    if (!tokens.delete(token)) {
      return {
        json: {
          success: false,
          'error-codes': [token ? 'invalid-input-response' : 'missing-input-response'],
        },
      };
    }
    return {
      json: {
        success: true,
        'error-codes': [],
        challenge_ts: new Date().toISOString(),
        hostname: 'localhost',
      },
    };
  });
  return {
    ...server,
    passToken() {
      const token = `0.${randomBytes(24).toString('base64url')}`;
      tokens.add(token);
      return token;
    },
  };
}
