import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { AppContext } from '../context';
import { loadUser } from '../http/auth';
import { fail } from '../http/envelope';
import { randomText } from './password';

export const OAUTH_STATE_COOKIE = 'gatehouse_oauth_state';
export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;
const STATE_LENGTH = 32;

/** Who asked for the state: 0 for a visitor signing in, else the user who will bind an account. */
export interface OAuthStateEntry {
  userId: number;
}

/** One-time OAuth states held on the server for a short time. */
export interface OAuthStateStore {
  save(state: string, entry: OAuthStateEntry, ttlMs: number): Promise<void>;
  /** The entry once; afterwards (or after expiry) null. */
  take(state: string): Promise<OAuthStateEntry | null>;
}

export class MemoryOAuthStateStore implements OAuthStateStore {
  private readonly entries = new Map<string, OAuthStateEntry & { expiresAt: number }>();

  async save(state: string, entry: OAuthStateEntry, ttlMs: number): Promise<void> {
    const now = Date.now();
    for (const [key, value] of this.entries) if (value.expiresAt <= now) this.entries.delete(key);
    this.entries.set(state, { ...entry, expiresAt: now + ttlMs });
  }

  async take(state: string): Promise<OAuthStateEntry | null> {
    const entry = this.entries.get(state);
    this.entries.delete(state);
    if (!entry || entry.expiresAt <= Date.now()) return null;
    return { userId: entry.userId };
  }
}

// GET and DEL in one step so two callbacks racing with one state cannot both win (GETDEL needs Redis 6.2).
const TAKE_SCRIPT = `
local value = redis.call('GET', KEYS[1])
if value then redis.call('DEL', KEYS[1]) end
return value
`;

export class RedisOAuthStateStore implements OAuthStateStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'gatehouse:oauth-state:',
  ) {}

  async save(state: string, entry: OAuthStateEntry, ttlMs: number): Promise<void> {
    await this.redis.set(this.prefix + state, JSON.stringify(entry), 'PX', ttlMs);
  }

  async take(state: string): Promise<OAuthStateEntry | null> {
    const value = await this.redis.eval(TAKE_SCRIPT, 1, this.prefix + state);
    if (typeof value !== 'string') return null;
    const parsed = JSON.parse(value) as Partial<OAuthStateEntry>;
    return typeof parsed.userId === 'number' ? { userId: parsed.userId } : null;
  }
}

/**
 * Issues a state for the OAuth page. It is stored on the server and also set in a signed cookie, so
 * the callback only succeeds in the browser that asked for it (no login CSRF), once, and for the same
 * session it was issued to.
 */
export async function issueOAuthState(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<string> {
  const user = await loadUser(context, request);
  const state = randomText(STATE_LENGTH);
  await context.auth.oauthStates.save(state, { userId: user?.id ?? 0 }, OAUTH_STATE_TTL_MS);
  reply.setCookie(OAUTH_STATE_COOKIE, state, {
    path: '/api/oauth',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    signed: true,
    maxAge: OAUTH_STATE_TTL_MS / 1000,
  });
  return state;
}

/** Spends the callback's state; refuses a missing, unknown, expired, foreign or reused one. */
export async function consumeOAuthState(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  state: string,
): Promise<void> {
  const refused = 'The state is missing, wrong or expired; please start the sign-in again';
  if (state === '') fail(refused);
  const raw = request.cookies[OAUTH_STATE_COOKIE];
  const cookie = raw ? request.unsignCookie(raw) : null;
  reply.clearCookie(OAUTH_STATE_COOKIE, { path: '/api/oauth' });
  const entry = await context.auth.oauthStates.take(state);
  if (!entry || !cookie?.valid || cookie.value !== state) fail(refused);
  const user = await loadUser(context, request);
  if (entry.userId !== (user?.id ?? 0)) fail(refused);
}
