import {
  CredentialRefusedError,
  type CredentialFetch,
  type CredentialResponse,
  type PreparedCredential,
  type TranslatorChannel,
  type UpstreamHttpRequest,
} from '../../canonical/translation';
import { parseVertexKey } from './vertex-key';
import type { VertexServiceAccount } from './vertex-service-account';

/** The scope Vertex AI needs (https://cloud.google.com/vertex-ai/docs/general/access-control). */
export const VERTEX_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** Google accepts assertions valid for at most an hour, and issues tokens for as long. */
const ONE_HOUR_S = 3600;

/**
 * The token request of a service account: a JWT signed with its private key (RS256) and exchanged at its
 * token_uri by the JWT bearer grant of RFC 7523, as Google describes it
 * (https://developers.google.com/identity/protocols/oauth2/service-account#httprest).
 */
export async function buildVertexTokenRequest(
  account: VertexServiceAccount,
  now: number,
): Promise<UpstreamHttpRequest> {
  const issuedAt = Math.floor(now / 1000);
  // jose is ESM only, and loaded with the first Vertex AI credential.
  const { SignJWT } = await import('jose');
  const assertion = await new SignJWT({ scope: VERTEX_SCOPE })
    .setProtectedHeader({
      alg: 'RS256',
      typ: 'JWT',
      ...(account.privateKeyId ? { kid: account.privateKeyId } : {}),
    })
    .setIssuer(account.clientEmail)
    .setAudience(account.tokenUri)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ONE_HOUR_S)
    .sign(account.privateKey);
  return {
    url: account.tokenUri,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion }).toString(),
  };
}

function parseObject(body: Buffer): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** `invalid_grant (Invalid JWT Signature.)`: the OAuth error of RFC 6749 §5.2 as Google words it. */
function describeOAuthError(answer: Record<string, unknown> | null): string {
  const error = typeof answer?.error === 'string' ? answer.error : '';
  const description = typeof answer?.error_description === 'string' ? answer.error_description : '';
  return [error, description && `(${description})`].filter(Boolean).join(' ');
}

/**
 * The token endpoint's answer: the access token and when it expires (expires_in seconds after the request
 * was sent). A 4xx is the account refused (a wrong or revoked key, a deleted account): CredentialRefusedError.
 */
export function readVertexTokenAnswer(
  response: CredentialResponse,
  account: Pick<VertexServiceAccount, 'clientEmail'>,
  sentAt: number,
): PreparedCredential {
  const answer = parseObject(response.body);
  if (response.status >= 200 && response.status < 300) {
    const accessToken = answer?.access_token;
    if (typeof accessToken !== 'string' || accessToken === '') {
      throw new Error("Google's token endpoint answered without an access token");
    }
    const expiresIn =
      typeof answer?.expires_in === 'number' && answer.expires_in > 0 ? answer.expires_in : ONE_HOUR_S;
    return { accessToken, expiresAt: sentAt + expiresIn * 1000 };
  }
  const detail = describeOAuthError(answer) || `HTTP ${response.status}`;
  if (response.status >= 400 && response.status < 500) {
    throw new CredentialRefusedError(
      `Google refused an access token to the service account ${account.clientEmail}: ${detail}`,
    );
  }
  throw new Error(`Google's token endpoint failed (HTTP ${response.status}): ${detail}`);
}

/** An OAuth access token for Vertex AI from a service account key, through the relay's HTTP client. */
export async function fetchVertexAccessToken(
  account: VertexServiceAccount,
  fetch: CredentialFetch,
  now: () => number = Date.now,
): Promise<PreparedCredential> {
  const sentAt = now();
  const response = await fetch(await buildVertexTokenRequest(account, sentAt));
  return readVertexTokenAnswer(response, account, sentAt);
}

/**
 * The adapter's prepareCredential: the channel's key (region|project|service account JSON) to an access
 * token. A key that is not one is refused like a key Google refuses: the channel cannot work until an
 * administrator fixes it.
 */
export async function prepareVertexCredential(
  channel: Pick<TranslatorChannel, 'key'>,
  fetch: CredentialFetch,
): Promise<PreparedCredential> {
  let account: VertexServiceAccount;
  try {
    account = parseVertexKey(channel.key).account;
  } catch (error) {
    throw new CredentialRefusedError((error as Error).message);
  }
  return fetchVertexAccessToken(account, fetch);
}
