import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { loadUser } from '../http/auth';
import { fail } from '../http/envelope';
import { setSignedCookie } from '../http/signed-cookie';
import { randomText } from './password';

// The stores live apart so that auth-services (built by context.ts) does not import these request helpers,
// which need the context: that was an import circle.
import type { OAuthStateEntry } from './oauth-state-store';

export {
  MemoryOAuthStateStore,
  RedisOAuthStateStore,
  type OAuthStateEntry,
  type OAuthStateStore,
} from './oauth-state-store';

export const OAUTH_STATE_COOKIE = 'gatehouse_oauth_state';
export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;
const STATE_LENGTH = 32;

/**
 * Issues a state for the OAuth page. It is stored on the server and also set in a signed cookie, so
 * the callback only succeeds in the browser that asked for it (no login CSRF), once, and for the same
 * session it was issued to.
 */
export async function issueOAuthState(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  oidc?: OAuthStateEntry['oidc'],
): Promise<string> {
  const user = await loadUser(context, request);
  const state = randomText(STATE_LENGTH);
  const entry: OAuthStateEntry = oidc ? { userId: user?.id ?? 0, oidc } : { userId: user?.id ?? 0 };
  await context.auth.oauthStates.save(state, entry, OAUTH_STATE_TTL_MS);
  setSignedCookie(request, reply, {
    name: OAUTH_STATE_COOKIE,
    value: state,
    path: '/api/oauth',
    maxAgeSeconds: OAUTH_STATE_TTL_MS / 1000,
  });
  return state;
}

/** Spends the callback's state; refuses a missing, unknown, expired, foreign or reused one. */
export async function consumeOAuthState(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  state: string,
): Promise<OAuthStateEntry> {
  const refused = 'The state is missing, wrong or expired; please start the sign-in again';
  if (state === '') fail(refused);
  const raw = request.cookies[OAUTH_STATE_COOKIE];
  const cookie = raw ? request.unsignCookie(raw) : null;
  reply.clearCookie(OAUTH_STATE_COOKIE, { path: '/api/oauth' });
  const entry = await context.auth.oauthStates.take(state);
  if (!entry || !cookie?.valid || cookie.value !== state) fail(refused);
  const user = await loadUser(context, request);
  if (entry.userId !== (user?.id ?? 0)) fail(refused);
  return entry;
}
