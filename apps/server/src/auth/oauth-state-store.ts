import type { Redis } from 'ioredis';
import { ExpiringEntries, type Expiring } from '../expiring-entries';

/** Who asked for the state: 0 for a visitor signing in, else the user who will bind an account. */
export interface OAuthStateEntry {
  userId: number;
  /** for an OpenID Connect sign-in: the PKCE verifier and the nonce the ID token must carry */
  oidc?: { verifier: string; nonce: string };
}

/** One-time OAuth states held on the server for a short time. */
export interface OAuthStateStore {
  save(state: string, entry: OAuthStateEntry, ttlMs: number): Promise<void>;
  /** The entry once; afterwards (or after expiry) null. */
  take(state: string): Promise<OAuthStateEntry | null>;
}

/**
 * States held at most (~150 bytes each, ~320 with an OIDC verifier and nonce: 32 MB when full), 160 sign-ins
 * started a second for ten minutes. Anyone may ask for a state, from as many addresses as they have: without a
 * bound they grew for as long as someone kept asking, and every save walked them all to sweep the expired
 * ones. Past this the oldest go first (those sign-ins must start again).
 */
export const MAX_OAUTH_STATES = 100_000;

export class MemoryOAuthStateStore implements OAuthStateStore {
  private readonly entries: ExpiringEntries<OAuthStateEntry & Expiring>;

  constructor(capacity = MAX_OAUTH_STATES) {
    this.entries = new ExpiringEntries(capacity);
  }

  /** states held now */
  get size(): number {
    return this.entries.size;
  }

  async save(state: string, entry: OAuthStateEntry, ttlMs: number): Promise<void> {
    const now = Date.now();
    // Fields named, not `{ ...entry, expiresAt }`: V8 builds a spread followed by a field on a slow path,
    // an object ~170 bytes larger (measured).
    this.entries.add(state, { userId: entry.userId, oidc: entry.oidc, expiresAt: now + ttlMs }, now);
  }

  async take(state: string): Promise<OAuthStateEntry | null> {
    const entry = this.entries.find(state);
    this.entries.delete(state);
    if (!entry) return null;
    return entry.oidc ? { userId: entry.userId, oidc: entry.oidc } : { userId: entry.userId };
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
    private readonly prefix = 'oauth-state:',
  ) {}

  async save(state: string, entry: OAuthStateEntry, ttlMs: number): Promise<void> {
    await this.redis.set(this.prefix + state, JSON.stringify(entry), 'PX', ttlMs);
  }

  async take(state: string): Promise<OAuthStateEntry | null> {
    const value = await this.redis.eval(TAKE_SCRIPT, 1, this.prefix + state);
    if (typeof value !== 'string') return null;
    const parsed = JSON.parse(value) as Partial<OAuthStateEntry>;
    if (typeof parsed.userId !== 'number') return null;
    const { oidc } = parsed;
    return typeof oidc?.verifier === 'string' && typeof oidc.nonce === 'string'
      ? { userId: parsed.userId, oidc: { verifier: oidc.verifier, nonce: oidc.nonce } }
      : { userId: parsed.userId };
  }
}
