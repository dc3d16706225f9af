import type { Redis } from 'ioredis';

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
