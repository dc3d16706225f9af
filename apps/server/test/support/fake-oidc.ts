import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import type { ReceivedRequest } from './stand-in-server';

/** The account the provider's login page "signs in" when the browser arrives at /authorize. */
export interface OidcAccount {
  sub: string;
  /** further ID-token claims: preferred_username, name, email, … */
  claims?: Record<string, unknown>;
  /** claims answered by /userinfo only (not put in the ID token) */
  userinfo?: Record<string, unknown>;
}

/** A way the next ID token is made wrong, to see the gateway refuse it. */
export type IdTokenFault = 'bad-signature' | 'wrong-audience' | 'expired' | 'wrong-nonce' | 'wrong-issuer';

export interface FakeOidc {
  /** http://127.0.0.1:<port>, also the issuer */
  url: string;
  discoveryUrl: string;
  requests: ReceivedRequest[];
  /** who /authorize signs in from now on (undefined: the user cancels, error=access_denied) */
  signInAs(account: OidcAccount | undefined): void;
  /** the next ID token the token endpoint issues is spoilt this way */
  spoilNextIdToken(fault: IdTokenFault): void;
  close(): Promise<void>;
}

interface PendingCode {
  account: OidcAccount;
  clientId: string;
  redirectUri: string;
  nonce: string | undefined;
  challenge: string;
}

const base64url = (buffer: Buffer) => buffer.toString('base64url');

/**
 * An OpenID Connect provider on 127.0.0.1 speaking the real protocol: the discovery document, an authorisation
 * endpoint that redirects back with code and state (authorization code flow, PKCE S256 required), a token
 * endpoint that checks the client secret (POST body or Basic) and the PKCE verifier and answers an access token
 * and an RS256 ID token, the JWKS with the public key, and /userinfo.
 */
export async function startFakeOidc(clientId: string, clientSecret: string): Promise<FakeOidc> {
  const kid = 'stand-in-key-1';
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  // Same key id, another key: a token signed with it fails the signature check, not the key lookup.
  const { privateKey: strangerKey } = await generateKeyPair('RS256');
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const codes = new Map<string, PendingCode>();
  const accessTokens = new Map<string, OidcAccount>();
  const requests: ReceivedRequest[] = [];
  let account: OidcAccount | undefined;
  let fault: IdTokenFault | undefined;
  let issuer = '';

  function json(response: ServerResponse, status: number, body: unknown) {
    response.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
    });
    response.end(JSON.stringify(body));
  }

  function authorize(request: ReceivedRequest, response: ServerResponse) {
    const query = request.query;
    const redirectUri = query.get('redirect_uri') ?? '';
    if (query.get('client_id') !== clientId || !/^https?:\/\//.test(redirectUri)) {
      return json(response, 400, {
        error: 'invalid_request',
        error_description: 'unknown client or redirect_uri',
      });
    }
    const back = new URL(redirectUri);
    const state = query.get('state');
    if (state !== null) back.searchParams.set('state', state);
    const scopes = (query.get('scope') ?? '').split(' ');
    const problem =
      query.get('response_type') !== 'code'
        ? 'unsupported_response_type'
        : !scopes.includes('openid')
          ? 'invalid_scope'
          : query.get('code_challenge_method') !== 'S256' || !query.get('code_challenge')
            ? 'invalid_request'
            : !account
              ? 'access_denied'
              : undefined;
    if (problem) {
      back.searchParams.set('error', problem);
    } else {
      const code = base64url(randomBytes(16));
      codes.set(code, {
        account: account!,
        clientId,
        redirectUri,
        nonce: query.get('nonce') ?? undefined,
        challenge: query.get('code_challenge')!,
      });
      back.searchParams.set('code', code);
    }
    response.writeHead(302, { location: back.href });
    response.end();
  }

  async function token(request: ReceivedRequest, response: ServerResponse) {
    const body = Object.fromEntries(new URLSearchParams(request.body));
    let [id, secret] = [body.client_id, body.client_secret];
    const basic = /^Basic (.+)$/.exec(request.headers.authorization ?? '');
    if (basic) {
      const [user, password] = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':');
      [id, secret] = [decodeURIComponent(user ?? ''), decodeURIComponent(password ?? '')];
    }
    if (id !== clientId || secret !== clientSecret) {
      return json(response, 401, {
        error: 'invalid_client',
        error_description: 'client authentication failed',
      });
    }
    const pending = codes.get(body.code ?? '');
    codes.delete(body.code ?? '');
    if (body.grant_type !== 'authorization_code' || !pending || pending.redirectUri !== body.redirect_uri) {
      return json(response, 400, { error: 'invalid_grant', error_description: 'unknown or used code' });
    }
    const verifier = body.code_verifier ?? '';
    if (base64url(createHash('sha256').update(verifier).digest()) !== pending.challenge) {
      return json(response, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
    }
    const spoilt = fault;
    fault = undefined;
    const accessToken = base64url(randomBytes(24));
    accessTokens.set(accessToken, pending.account);
    const now = Math.floor(Date.now() / 1000);
    const claims: Record<string, unknown> = { ...pending.account.claims };
    if (pending.nonce !== undefined)
      claims.nonce = spoilt === 'wrong-nonce' ? 'another-sign-in' : pending.nonce;
    const signingKey: CryptoKey = spoilt === 'bad-signature' ? strangerKey : privateKey;
    const idToken = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
      .setIssuer(spoilt === 'wrong-issuer' ? 'https://elsewhere.example.com' : issuer)
      .setSubject(pending.account.sub)
      .setAudience(spoilt === 'wrong-audience' ? 'another-client' : pending.clientId)
      .setIssuedAt(spoilt === 'expired' ? now - 7200 : now)
      .setExpirationTime(spoilt === 'expired' ? now - 3600 : now + 600)
      .sign(signingKey);
    return json(response, 200, {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: 600,
      id_token: idToken,
    });
  }

  function userinfo(request: ReceivedRequest, response: ServerResponse) {
    const presented = (request.headers.authorization ?? '').replace(/^Bearer /, '');
    const owner = accessTokens.get(presented);
    if (!owner) {
      response.writeHead(401, { 'www-authenticate': 'Bearer error="invalid_token"' });
      return response.end();
    }
    return json(response, 200, { sub: owner.sub, ...owner.claims, ...owner.userinfo });
  }

  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', 'http://stand-in');
      const request: ReceivedRequest = {
        method: incoming.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      const route = `${request.method} ${request.path}`;
      Promise.resolve()
        .then(() => {
          if (route === 'GET /.well-known/openid-configuration') {
            return json(response, 200, {
              issuer,
              authorization_endpoint: `${issuer}/authorize`,
              token_endpoint: `${issuer}/token`,
              jwks_uri: `${issuer}/jwks`,
              userinfo_endpoint: `${issuer}/userinfo`,
              response_types_supported: ['code'],
              subject_types_supported: ['public'],
              id_token_signing_alg_values_supported: ['RS256'],
              code_challenge_methods_supported: ['S256'],
              token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
              scopes_supported: ['openid', 'profile', 'email'],
            });
          }
          if (route === 'GET /authorize') return authorize(request, response);
          if (route === 'POST /token') return token(request, response);
          if (route === 'GET /jwks') return json(response, 200, { keys: [publicJwk] });
          if (route === 'GET /userinfo') return userinfo(request, response);
          return json(response, 404, { error: 'not_found' });
        })
        .catch((error: unknown) => {
          response.writeHead(500, { 'content-type': 'text/plain' });
          response.end(String(error));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    requests,
    signInAs(next) {
      account = next;
    },
    spoilNextIdToken(next) {
      fault = next;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
