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
  }

  forgetUser(userId: number): void {
    for (const [key, entry] of this.entries) if (entry.row.user_id === userId) this.entries.delete(key);
  }

  /** Drops every key: another instance changed keys or users. */
  clear(): void {
    this.entries.clear();
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
    // Still full of live keys: start over rather than grow without bound.
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
  }
}
