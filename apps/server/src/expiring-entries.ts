/** An entry that ends: a rate-limit window, a one-time state. */
export interface Expiring {
  /** Unix milliseconds; the entry is gone from then on */
  expiresAt: number;
}

/** Expired entries are swept once this many were added since the last sweep, or as many as it left. */
const MIN_ADDS_PER_SWEEP = 1000;
/** Past its capacity the map is cut down to this share of it, so the next cut is many adds away. */
const LOW_WATER = 0.9;

/**
 * Entries that expire, in process, at most `capacity` of them. For what is keyed by values a client picks
 * (its address, a state it asked for): expiry alone bounds them only by how fast a client can send, and an
 * address flood (an IPv6 prefix holds 2^64) would grow them without limit. Expired entries are swept every so
 * many adds (O(1) per add on average); past the capacity, the oldest entries go first, live or not.
 */
export class ExpiringEntries<Entry extends Expiring> {
  private readonly entries = new Map<string, Entry>();
  private addsSinceSweep = 0;
  /** adds until the next sweep: as many as the last sweep left, so a sweep costs O(1) per add */
  private sweepAfter = MIN_ADDS_PER_SWEEP;

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** The live entry under `key`; an expired one is dropped. */
  find(key: string, now = Date.now()): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.expiresAt > now) return entry;
    this.entries.delete(key);
    return undefined;
  }

  /** Stores `entry` under `key` as the newest entry (replacing any), making room first when full. */
  add(key: string, entry: Entry, now = Date.now()): void {
    // Deleted first, so that the map's order stays the order of adds: the oldest come first.
    this.entries.delete(key);
    this.addsSinceSweep += 1;
    if (this.addsSinceSweep >= this.sweepAfter) this.sweep(now);
    if (this.entries.size >= this.capacity) this.cut(now);
    this.entries.set(key, entry);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  private sweep(now: number): void {
    this.addsSinceSweep = 0;
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
    this.sweepAfter = Math.max(MIN_ADDS_PER_SWEEP, this.entries.size);
  }

  /** Expired entries, then the oldest ones, until the map is down to its low-water mark. */
  private cut(now: number): void {
    this.sweep(now);
    let excess = this.entries.size - Math.floor(this.capacity * LOW_WATER);
    for (const key of this.entries.keys()) {
      if (excess <= 0) break;
      this.entries.delete(key);
      excess -= 1;
    }
  }
}
