import type { Db } from '../db/database';
import { isOptionKey, optionDefinitions, type OptionKey } from './option-defaults';

type Listener = (key: OptionKey, value: string) => void;

/**
 * The options, held in memory and read synchronously on every request. Writes go to the database first,
 * then to memory; other instances reload when the write is announced to them (sync/change-feed.ts), and every
 * SYNC_FREQUENCY seconds in any case.
 */
export class OptionStore {
  private readonly values = new Map<OptionKey, string>();
  private readonly listeners = new Set<Listener>();
  /** told of this instance's own writes only (so they can be announced to other instances) */
  private readonly writeListeners = new Set<(key: OptionKey) => void>();

  constructor(private readonly db: Db) {
    for (const [key, definition] of Object.entries(optionDefinitions)) {
      this.values.set(key as OptionKey, definition.defaultValue);
    }
  }

  async reload(): Promise<void> {
    const rows = await this.db.selectFrom('options').select(['key', 'value']).execute();
    for (const row of rows) {
      if (!isOptionKey(row.key)) continue;
      if (this.values.get(row.key) !== row.value) this.apply(row.key, row.value);
    }
  }

  get(key: OptionKey): string {
    return this.values.get(key) ?? optionDefinitions[key].defaultValue;
  }

  getBoolean(key: OptionKey): boolean {
    return this.get(key) === 'true';
  }

  getNumber(key: OptionKey): number {
    const value = Number(this.get(key));
    return Number.isFinite(value) ? value : Number(optionDefinitions[key].defaultValue);
  }

  getJson<T>(key: OptionKey): T {
    try {
      return JSON.parse(this.get(key)) as T;
    } catch {
      return JSON.parse(optionDefinitions[key].defaultValue) as T;
    }
  }

  entries(): Array<[OptionKey, string]> {
    return [...this.values.entries()];
  }

  /** Stores an already validated value. */
  async set(key: OptionKey, value: string): Promise<void> {
    await writeOptionRow(this.db, key, value);
    this.noteWritten(key, value);
  }

  /**
   * Takes a value already written (by `writeOptionRow` in a transaction that has committed) into memory, and
   * tells this instance's write listeners, so other instances hear of it as of a `set`.
   */
  noteWritten(key: OptionKey, value: string): void {
    this.apply(key, value);
    for (const listener of this.writeListeners) listener(key);
  }

  /** Listens to `set` on this instance, not to values a reload brings in from other instances. */
  onWrite(listener: (key: OptionKey) => void): () => void {
    this.writeListeners.add(listener);
    return () => this.writeListeners.delete(listener);
  }

  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private apply(key: OptionKey, value: string): void {
    this.values.set(key, value);
    for (const listener of this.listeners) listener(key, value);
  }
}

/** Portable upsert of one option row (MySQL has no ON CONFLICT): update, else insert; a racing insert updates. */
export async function writeOptionRow(db: Db, key: OptionKey, value: string): Promise<void> {
  const existing = await db.selectFrom('options').select('key').where('key', '=', key).executeTakeFirst();
  if (existing) {
    await db.updateTable('options').set({ value }).where('key', '=', key).execute();
  } else {
    await db
      .insertInto('options')
      .values({ key, value })
      .execute()
      .catch(() => db.updateTable('options').set({ value }).where('key', '=', key).execute());
  }
}
