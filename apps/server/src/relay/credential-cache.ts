import type { PreparedCredential } from '../canonical/translation';

interface CacheEntry {
  credential: PreparedCredential | null;
  /** when to start getting the next one: a little before the credential expires */
  refreshAt: number;
  /** the refresh under way, which every request for this credential waits for or leaves to finish */
  refreshing: Promise<PreparedCredential> | null;
}

/** Start refreshing this long before expiry, or halfway through a shorter life. */
const REFRESH_MARGIN_MS = 5 * 60_000;
/** Credentials of deleted or edited channels are not tracked one by one: past this many, start over. */
const MAX_ENTRIES = 1000;

/**
 * Short-lived credentials that adapters derive from channel keys (OAuth access tokens), shared by every
 * request of an instance. One refresh at a time per credential: requests that need a token while none is
 * valid wait for that one refresh; requests in the last minutes of a token's life keep using it while the
 * refresh runs. A failed refresh is not remembered: the next request tries again.
 */
export class CredentialCache {
  private readonly entries = new Map<string, CacheEntry>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The access token for `key`, from the cache or from `prepare` (which runs once however many wait). */
  async getAccessToken(key: string, prepare: () => Promise<PreparedCredential>): Promise<string> {
    const entry = this.entries.get(key);
    const now = this.now();
    if (entry?.credential && now < entry.credential.expiresAt) {
      if (now >= entry.refreshAt) void this.refresh(key, entry, prepare).catch(() => undefined);
      return entry.credential.accessToken;
    }
    const fresh = await this.refresh(key, entry ?? null, prepare);
    return fresh.accessToken;
  }

  /**
   * Forgets the credential of `key` (the upstream refused it, e.g. a revoked token): the next request waits for
   * a new one. A refresh under way is left to finish for the requests already waiting on it.
   */
  forget(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    if (entry.refreshing) entry.credential = null;
    else this.entries.delete(key);
  }

  private refresh(
    key: string,
    existing: CacheEntry | null,
    prepare: () => Promise<PreparedCredential>,
  ): Promise<PreparedCredential> {
    if (existing?.refreshing) return existing.refreshing;
    if (!existing && this.entries.size >= MAX_ENTRIES) this.entries.clear();
    const entry: CacheEntry = existing ?? { credential: null, refreshAt: 0, refreshing: null };
    this.entries.set(key, entry);
    const startedAt = this.now();
    entry.refreshing = prepare().then(
      (credential) => {
        const margin = Math.min(REFRESH_MARGIN_MS, (credential.expiresAt - startedAt) / 2);
        entry.credential = credential;
        entry.refreshAt = credential.expiresAt - margin;
        entry.refreshing = null;
        return credential;
      },
      (error: unknown) => {
        entry.refreshing = null;
        throw error;
      },
    );
    return entry.refreshing;
  }
}
