import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { oidcRedirectUri } from '@gatehouse/shared';
import type * as Oidc from 'openid-client';
import type { AppContext } from '../context';
import { fail } from '../http/envelope';
import type { ExternalIdentity } from './external-sign-in';
import { consumeOAuthState, issueOAuthState } from './oauth-state';
import { publicAddress } from './public-address';

export const OIDC_DISABLED = 'The administrator has not enabled sign-in and registration with OIDC';
const REFUSED_STATE = 'The state is missing, wrong or expired; please start the sign-in again';

let oidcPackage: Promise<typeof Oidc> | undefined;

/** openid-client (ESM only), loaded with the first OIDC sign-in. */
function loadOidc(): Promise<typeof Oidc> {
  return (oidcPackage ??= import('openid-client'));
}

/** How long a discovered provider (its endpoints and keys) is reused before it is read again. */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
const PROVIDER_TIMEOUT_SECONDS = 10;

interface CachedProvider {
  /** the options it was discovered with: any change to them reads the provider again */
  key: string;
  config: Oidc.Configuration;
  loadedAt: number;
}

const providers = new WeakMap<AppContext, CachedProvider>();

export function isOidcEnabled(context: AppContext): boolean {
  const { options } = context;
  return (
    options.getBoolean('OidcEnabled') &&
    options.get('OidcDiscoveryURL') !== '' &&
    options.get('OidcClientId') !== '' &&
    options.get('OidcClientSecret') !== ''
  );
}

/**
 * The provider's configuration from its discovery document, kept for an hour per server. A failed sign-in
 * that may come from stale metadata or keys drops it (`forgetProvider`), so the next try reads it afresh.
 */
async function providerConfig(context: AppContext, log: FastifyBaseLogger): Promise<Oidc.Configuration> {
  const { options } = context;
  const discoveryUrl = options.get('OidcDiscoveryURL');
  const clientId = options.get('OidcClientId');
  const clientSecret = options.get('OidcClientSecret');
  const key = JSON.stringify([discoveryUrl, clientId, clientSecret]);
  const cached = providers.get(context);
  if (cached && cached.key === key && Date.now() - cached.loadedAt < DISCOVERY_TTL_MS) return cached.config;
  const url = new URL(discoveryUrl);
  const oidc = await loadOidc();
  // openid-client speaks HTTPS only unless told otherwise; the option may name an http:// provider on purpose.
  const execute = [oidc.enableNonRepudiationChecks];
  if (url.protocol === 'http:') execute.push(oidc.allowInsecureRequests);
  try {
    const config = await oidc.discovery(url, clientId, clientSecret, undefined, {
      execute,
      timeout: PROVIDER_TIMEOUT_SECONDS,
    });
    providers.set(context, { key, config, loadedAt: Date.now() });
    return config;
  } catch (error) {
    log.error({ err: error }, 'OIDC discovery failed');
    return fail('Could not read the OIDC provider’s discovery document; please retry later');
  }
}

function forgetProvider(context: AppContext): void {
  providers.delete(context);
}

/**
 * GET /api/oauth/oidc/start: a one-time state (bound to this browser and, when signed in, to this user) with
 * a PKCE verifier and a nonce kept on the server, and the provider's authorisation URL to send the browser to.
 */
export async function startOidcSignIn(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<string> {
  if (!isOidcEnabled(context)) fail(OIDC_DISABLED);
  const redirectUri = oidcRedirectUri(publicAddress(context));
  const config = await providerConfig(context, request.log);
  const oidc = await loadOidc();
  const verifier = oidc.randomPKCECodeVerifier();
  const nonce = oidc.randomNonce();
  const state = await issueOAuthState(context, request, reply, { verifier, nonce });
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: context.options.get('OidcScopes') || 'openid',
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  return url.href;
}

/** A refusal of the provider's answer, worded for the person signing in; undefined for unexpected faults. */
function describeRefusal(error: unknown, oidc: typeof Oidc): string | undefined {
  if (error instanceof oidc.ResponseBodyError) {
    return `the provider refused the code (${error.error_description || error.error})`;
  }
  if (error instanceof oidc.AuthorizationResponseError) {
    return `the provider refused the sign-in (${error.error_description || error.error})`;
  }
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: string }).code;
  // openid-client wraps the failed check; the claim it concerns is named further down the chain of causes.
  const chain: Array<{ message?: string; claim?: string; cause?: unknown }> = [];
  for (let link: unknown = error; typeof link === 'object' && link !== null && chain.length < 5;) {
    const entry = link as { message?: string; claim?: string; cause?: unknown };
    chain.push(entry);
    link = entry.cause;
  }
  const cause = { claim: chain.find((entry) => typeof entry.claim === 'string')?.claim };
  const messages = chain.map((entry) => entry.message ?? '').join(' ');
  if (code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED') {
    return cause.claim === 'exp' ? 'the ID token has expired' : 'the ID token is not valid at this time';
  }
  if (code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED') {
    switch (cause.claim) {
      case 'aud':
      case 'azp':
        return 'the ID token was issued for another client (audience)';
      case 'iss':
        return 'the ID token comes from another issuer';
      case 'nonce':
        return 'the ID token does not belong to this sign-in (nonce)';
      default:
        return `the ID token's ${cause.claim ?? 'claims'} do not match`;
    }
  }
  if (code === 'OAUTH_KEY_SELECTION_FAILED' || /signature verification failed/i.test(messages)) {
    return 'the ID token’s signature does not verify against the provider’s keys';
  }
  if (code === 'OAUTH_INVALID_RESPONSE' || code === 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED') {
    return `the provider's answer is not valid (${error.message})`;
  }
  return undefined;
}

function claimText(claims: Record<string, unknown>, name: string): string {
  const value = claims[name];
  return typeof value === 'string' ? value.trim() : '';
}

/** A username to start from: the claim's letters and digits (the part before any @), else "oidc_" + digits. */
function usernameBaseOf(value: string): string {
  const base = value.split('@')[0]!.replace(/[^A-Za-z0-9_.-]/g, '');
  return base === '' ? 'oidc_' : base;
}

/**
 * GET /api/oauth/oidc?code&state: spends the state, exchanges the code (with the PKCE verifier and the client
 * secret) and verifies the ID token — signature by the provider's JWKS, issuer, audience, expiry, nonce —
 * before anything about a user is read or written. Answers the identity: issuer and subject, with the mapped
 * claims for a new account.
 */
export async function finishOidcSignIn(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  code: string,
  state: string,
): Promise<ExternalIdentity> {
  const { options } = context;
  if (!isOidcEnabled(context)) fail(OIDC_DISABLED);
  const redirectUri = oidcRedirectUri(publicAddress(context));
  const entry = await consumeOAuthState(context, request, reply, state);
  // A state from /api/oauth/state (GitHub, Lark) carries no verifier and nonce: not one of ours.
  if (!entry.oidc) fail(REFUSED_STATE);
  const config = await providerConfig(context, request.log);
  const oidc = await loadOidc();
  const callbackUrl = new URL(redirectUri);
  callbackUrl.searchParams.set('code', code);
  callbackUrl.searchParams.set('state', state);
  let claims: Record<string, unknown>;
  let accessToken: string;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: entry.oidc.verifier,
      expectedNonce: entry.oidc.nonce,
      expectedState: state,
      idTokenExpected: true,
    });
    claims = { ...tokens.claims() };
    accessToken = tokens.access_token;
  } catch (error) {
    // Keys may have rotated or endpoints moved: read the provider again next time.
    forgetProvider(context);
    const reason = describeRefusal(error, oidc);
    request.log.warn({ err: error }, 'OIDC sign-in refused');
    return fail(
      reason ? `OIDC sign-in failed: ${reason}` : 'Could not complete the OIDC sign-in; please retry later',
    );
  }
  const subject = claimText(claims, 'sub');
  const issuer = claimText(claims, 'iss');
  const usernameClaim = options.get('OidcUsernameClaim');
  const nameClaim = options.get('OidcDisplayNameClaim');
  const emailClaim = options.get('OidcEmailClaim');
  // Some providers keep profile claims out of the ID token: the userinfo endpoint fills in what is missing.
  if (
    config.serverMetadata().userinfo_endpoint &&
    [usernameClaim, nameClaim, emailClaim].some((name) => claims[name] === undefined)
  ) {
    try {
      const info = await oidc.fetchUserInfo(config, accessToken, subject);
      claims = { ...info, ...claims };
    } catch (error) {
      request.log.warn({ err: error }, 'OIDC userinfo could not be read; using the ID token alone');
    }
  }
  const username = claimText(claims, usernameClaim);
  const email = claimText(claims, emailClaim);
  return {
    id: `${issuer} ${subject}`,
    usernameBase: usernameBaseOf(username),
    displayName: claimText(claims, nameClaim) || username || 'OIDC User',
    // An address the provider says it has not verified is not given to the account.
    email: claims.email_verified === false || !/^[^\s@]+@[^\s@]+$/.test(email) ? undefined : email,
  };
}
