import { randomBytes } from 'node:crypto';
import { readBody, startStandInServer, type StandInServer } from './stand-in-server';

export interface GitHubUser {
  id: number;
  login: string;
  name: string | null;
}

export interface FakeGitHub extends StandInServer {
  /** a one-time authorization code that GitHub would hand the browser for this user */
  authorize(user: GitHubUser): string;
}

/**
 * GitHub's OAuth token exchange (POST /login/oauth/access_token) and REST user endpoint (GET /user),
 * with their documented shapes: a bad code answers 200 with `error`, an unknown token 401.
 */
export async function startFakeGitHub(clientId: string, clientSecret: string): Promise<FakeGitHub> {
  const codes = new Map<string, GitHubUser>();
  const tokens = new Map<string, GitHubUser>();
  const server = await startStandInServer((request) => {
    if (request.method === 'POST' && request.path === '/login/oauth/access_token') {
      const body = readBody(request);
      if (body.client_id !== clientId || body.client_secret !== clientSecret) {
        return {
          json: {
            error: 'incorrect_client_credentials',
            error_description: 'The client_id and/or client_secret passed are incorrect.',
          },
        };
      }
      const user = codes.get(body.code ?? '');
      codes.delete(body.code ?? '');
      if (!user) {
        return {
          json: {
            error: 'bad_verification_code',
            error_description: 'The code passed is incorrect or expired.',
          },
        };
      }
      const token = `gho_${randomBytes(12).toString('hex')}`;
      tokens.set(token, user);
      return { json: { access_token: token, token_type: 'bearer', scope: 'user:email' } };
    }
    if (request.method === 'GET' && request.path === '/user') {
      if (!request.headers['user-agent']) return { status: 403, json: { message: 'User-Agent required' } };
      const token = (request.headers.authorization ?? '').replace(/^(Bearer|token) /, '');
      const user = tokens.get(token);
      if (!user) return { status: 401, json: { message: 'Bad credentials' } };
      return { json: { ...user, avatar_url: '', type: 'User', email: null } };
    }
    return { status: 404, json: { message: 'Not Found' } };
  });
  return {
    ...server,
    authorize(user) {
      const code = randomBytes(10).toString('hex');
      codes.set(code, user);
      return code;
    },
  };
}
