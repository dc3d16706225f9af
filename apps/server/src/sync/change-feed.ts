import type { Db } from '../db/database';

/** What a node keeps in memory and must reload when another node changes it. */
export type ChangeTopic = 'channels' | 'options' | 'keys' | 'users';

/**
 * How often every node reads the change counters. Four rows by primary key, so ~4 tiny queries a second per
 * node; a change is seen elsewhere within this plus the reload it triggers, well inside a second.
 */
export const CHANGE_POLL_MS = 250;

type Log = { error(details: object, message: string): void };

/**
 * Tells other nodes sharing the database what changed, and hears what they changed. A change is announced by
 * adding one to its topic's counter in `change_versions` after the change itself has committed, so a node
 * that sees the new counter always reads the change. Every node polls the counters; a topic whose counter
 * moved fires its listeners (a node hears its own announcements too: one redundant, harmless reload). Works
 * on SQLite, PostgreSQL and MySQL alike, with or without Redis. A node that crashes between its change and the
 * announcement leaves the change to the periodic full reload (SYNC_FREQUENCY), which stays as the safety net.
 */
export class ChangeFeed {
  private readonly seen = new Map<string, number>();
  private readonly listeners = new Map<ChangeTopic, Set<() => void>>();
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private hasBaseline = false;
  private isFailing = false;

  constructor(
    private readonly db: Db,
    private readonly log: Log,
    private readonly pollMs = CHANGE_POLL_MS,
  ) {}

  /** Reads the counters as they stand (nothing fires for them), then polls. */
  async start(): Promise<void> {
    await this.poll();
    this.timer = setInterval(() => void this.poll(), this.pollMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.polling;
  }

  on(topic: ChangeTopic, listener: () => void): () => void {
    const set = this.listeners.get(topic) ?? new Set();
    this.listeners.set(topic, set);
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Bumps the topic's counter. Never throws: the change is already stored, and the periodic reload remains. */
  async announce(topic: ChangeTopic): Promise<void> {
    try {
      const result = await this.db
        .updateTable('change_versions')
        .set((eb) => ({ version: eb('version', '+', 1) }))
        .where('topic', '=', topic)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) > 0) return;
      // A topic added after the migration that seeded the rows: its first announcement creates it.
      await this.db
        .insertInto('change_versions')
        .values({ topic, version: 1 })
        .execute()
        .catch(() =>
          this.db
            .updateTable('change_versions')
            .set((eb) => ({ version: eb('version', '+', 1) }))
            .where('topic', '=', topic)
            .execute(),
        );
    } catch (error) {
      this.log.error({ err: error, topic }, 'announcing a change to other nodes failed');
    }
  }

  /** One read of the counters; fires the listeners of every topic that moved since the last read. */
  poll(): Promise<void> {
    this.polling ??= this.readCounters().finally(() => {
      this.polling = null;
    });
    return this.polling;
  }

  private async readCounters(): Promise<void> {
    let rows: Array<{ topic: string; version: number }>;
    try {
      rows = await this.db.selectFrom('change_versions').select(['topic', 'version']).execute();
    } catch (error) {
      // Once per outage, not four times a second (a slave started before the master migrated, a lost database).
      if (!this.isFailing) this.log.error({ err: error }, 'reading the change counters failed');
      this.isFailing = true;
      return;
    }
    this.isFailing = false;
    const moved: string[] = [];
    for (const row of rows) {
      const version = Number(row.version);
      const previous = this.seen.get(row.topic);
      this.seen.set(row.topic, version);
      if (this.hasBaseline && previous !== version) moved.push(row.topic);
    }
    this.hasBaseline = true;
    for (const topic of moved) {
      for (const listener of this.listeners.get(topic as ChangeTopic) ?? []) {
        try {
          listener();
        } catch (error) {
          this.log.error({ err: error, topic }, 'reloading after a change failed');
        }
      }
    }
  }
}
