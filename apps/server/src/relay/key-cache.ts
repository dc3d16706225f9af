/** How long a looked-up key is reused. Status, expiry and balances are re-checked by the reservation itself. */
const KEY_CACHE_TTL_MS = 1000;
const MAX_ENTRIES = 10_000;

/**
 * Keys (with their owner) looked up in the last second, so a busy key costs no query per request. What the
 * cache could serve stale is checked again where it matters: the reservation's conditional UPDATE requires
 * the key and the user to be enabled and the key unexpired, and an admin's change to a user drops that user's
 * keys at once (the userChanged event). Only model lists, subnets and groups may lag, by at most a second.
 */
export class KeyCache<Row extends { user_id: number }> {
  private readonly entries = new Map<string, { row: Row; expiresAt: number }>();
  /** lookups under way, one per key: held only while their query runs */
  private readonly lookups = new Map<string, Promise<Row | null>>();
  /** moves on whenever keys are dropped: a lookup begun before must not be kept or shared */
  private generation = 0;

  /**
   * The key's row: cached, or read by `read` — once for all the requests that ask while that read runs (when
   * the cached row expires under load, every request in that window would otherwise send the same query).
   */
  get(key: string, read: (key: string) => Promise<Row | null>): Promise<Row | null> {
    const cached = this.find(key);
    if (cached) return Promise.resolve(cached);
    const running = this.lookups.get(key);
    if (running) return running;
    const generation = this.generation;
    const lookup = read(key).then(
      (row) => {
        if (generation === this.generation) {
          this.lookups.delete(key);
          if (row) this.remember(key, row);
        }
        return row;
      },
      (error: unknown) => {
        if (generation === this.generation) this.lookups.delete(key);
        throw error;
      },
    );
    this.lookups.set(key, lookup);
    return lookup;
  }

  find(key: string, now = Date.now()): Row | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return null;
    }
    return entry.row;
  }

  remember(key: string, row: Row, now = Date.now()): void {
    if (this.entries.size >= MAX_ENTRIES) this.sweep(now);
    this.entries.set(key, { row, expiresAt: now + KEY_CACHE_TTL_MS });
  }

  forget(key: string): void {
    this.entries.delete(key);
    this.dropLookups();
  }

  forgetUser(userId: number): void {
    for (const [key, entry] of this.entries) if (entry.row.user_id === userId) this.entries.delete(key);
    this.dropLookups();
  }

  /** Drops every key: another instance changed keys or users. */
  clear(): void {
    this.entries.clear();
    this.dropLookups();
  }

  /** Lookups under way may have read what just changed: later requests read again, and nothing is kept. */
  private dropLookups(): void {
    this.generation += 1;
    this.lookups.clear();
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
    // Still full of live keys: start over rather than grow without bound.
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
  }
}
