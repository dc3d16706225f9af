import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { decodeJwt, errors, jwtVerify } from 'jose';
import type { CredentialFetch } from '../../src/canonical/translation';
import { readBody, startStandInServer, type StandInServer } from './stand-in-server';

const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

/** A service account key as the Google Cloud console downloads it, made with a fresh RSA key pair. */
export interface TestServiceAccount {
  /** the key file's JSON text: a Vertex channel's credentials */
  json: string;
  clientEmail: string;
  projectId: string;
  publicKey: KeyObject;
  /** the PEM of the private key, to check that no message repeats it */
  privateKeyPem: string;
}

export function createTestServiceAccount(options: {
  tokenUri: string;
  projectId?: string;
  clientEmail?: string;
}): TestServiceAccount {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const projectId = options.projectId ?? 'gatehouse-test';
  const clientEmail = options.clientEmail ?? `relay@${projectId}.iam.gserviceaccount.com`;
  const json = JSON.stringify(
    {
      type: 'service_account',
      project_id: projectId,
      private_key_id: randomUUID().replace(/-/g, ''),
      private_key: privateKeyPem,
      client_email: clientEmail,
      client_id: '104235123456789012345',
      auth_uri: 'https://accounts.google.com/o/oauth2/auth',
      token_uri: options.tokenUri,
      auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
      client_x509_cert_url: `https://www.googleapis.com/robot/v1/metadata/x509/${encodeURIComponent(clientEmail)}`,
      universe_domain: 'googleapis.com',
    },
    null,
    2,
  );
  return { json, clientEmail, projectId, publicKey, privateKeyPem };
}

/** How the stand-in answers; by default a working Google token endpoint. */
export interface GoogleTokenBehaviour {
  /** seconds, as Google's `expires_in` (3599 by default) */
  expiresIn?: number;
  /** answer every call with this status and body (a 503, a deleted account's invalid_grant …) */
  error?: { status: number; json: unknown };
}

export interface GoogleTokenStandIn {
  /** the token endpoint, to put in a service account's token_uri */
  tokenUri: string;
  behaviour: GoogleTokenBehaviour;
  /** token requests received */
  readonly calls: number;
  /** the access tokens handed out, newest last */
  issued: string[];
  /** a service account whose public key the endpoint knows */
  createServiceAccount(options?: { projectId?: string; clientEmail?: string }): TestServiceAccount;
  close(): Promise<void>;
}

/** Google's OAuth error answer (RFC 6749 §5.2), as its token endpoint words it. */
const oauthError = (error: string, description: string) => ({
  status: 400,
  json: { error, error_description: description },
});

/**
 * Google's OAuth 2.0 token endpoint on 127.0.0.1 for the service account flow
 * (https://developers.google.com/identity/protocols/oauth2/service-account#httprest): `POST /token` with the
 * JWT bearer grant. It checks the grant type, the assertion's RS256 signature against the public key of the
 * account it names, its audience (this endpoint) and scope, and answers an access token or Google's errors.
 */
export async function startGoogleTokenStandIn(
  behaviour: GoogleTokenBehaviour = {},
): Promise<GoogleTokenStandIn> {
  const publicKeys = new Map<string, KeyObject>();
  const issued: string[] = [];
  let server: StandInServer | null = null;
  const tokenUri = () => `${server!.url}/token`;

  server = await startStandInServer(async (request) => {
    if (request.method !== 'POST' || request.path !== '/token') {
      return { status: 404, json: { error: 'not_found' } };
    }
    if (standIn.behaviour.error) return standIn.behaviour.error;
    const form = readBody(request);
    if (form.grant_type !== JWT_BEARER_GRANT) {
      return oauthError('unsupported_grant_type', `Invalid grant_type: ${form.grant_type ?? ''}`);
    }
    let issuer = '';
    try {
      issuer = String(decodeJwt(form.assertion ?? '').iss ?? '');
    } catch {
      return oauthError('invalid_request', 'Invalid JWT: the assertion is not a JWT.');
    }
    const publicKey = publicKeys.get(issuer);
    if (!publicKey) return oauthError('invalid_grant', 'Invalid grant: account not found');
    try {
      const { payload } = await jwtVerify(form.assertion!, publicKey, {
        algorithms: ['RS256'],
        issuer,
        audience: tokenUri(),
        requiredClaims: ['iat', 'exp'],
      });
      if (payload.scope !== CLOUD_PLATFORM_SCOPE) {
        return oauthError('invalid_scope', `Invalid OAuth scope or ID token audience provided.`);
      }
    } catch (error) {
      return error instanceof errors.JWSSignatureVerificationFailed
        ? oauthError('invalid_grant', 'Invalid JWT Signature.')
        : oauthError('invalid_grant', `Invalid JWT: ${(error as Error).message}`);
    }
    const accessToken = `ya29.stand-in-${issued.length + 1}-${randomUUID()}`;
    issued.push(accessToken);
    return {
      json: {
        access_token: accessToken,
        expires_in: standIn.behaviour.expiresIn ?? 3599,
        token_type: 'Bearer',
      },
    };
  });

  const standIn: GoogleTokenStandIn = {
    tokenUri: tokenUri(),
    behaviour,
    get calls() {
      return server!.requests.length;
    },
    issued,
    createServiceAccount(options = {}) {
      const account = createTestServiceAccount({ tokenUri: tokenUri(), ...options });
      publicKeys.set(account.clientEmail, account.publicKey);
      return account;
    },
    close: () => server!.close(),
  };
  return standIn;
}

/** The relay's credential fetch as tests make it: the token request sent with Node's fetch. */
export const fetchCredentialForTests: CredentialFetch = async (request) => {
  const response = await fetch(request.url, {
    method: request.method ?? 'POST',
    headers: request.headers,
    body: request.body,
  });
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
};
