import { MemoryLimitCounters, type AdmitResult, type LimitCheck, type LimitCounters } from './limit-counters';

/** The part of the server's logger the fallback writes to. */
export interface FallbackLog {
  warn(details: object, message: string): void;
  info(message: string): void;
}

/** After a Redis failure, the node counts on its own this long before it asks Redis again. */
const RETRY_AFTER_MS = 10_000;

/**
 * Redis counters that fall back to the node's own when Redis does not answer, so the relay keeps serving
 * (limits then hold per node, not across nodes) — with a warning in the log. Corrections go to the counters
 * that admitted the request: a request admitted locally is corrected locally.
 */
export class FallbackLimitCounters implements LimitCounters {
  private readonly local = new MemoryLimitCounters();
  private failedAt: number | null = null;

  constructor(
    private readonly shared: LimitCounters,
    private readonly log?: FallbackLog,
  ) {}

  /** true while limits are counted per node because Redis failed */
  get isDegraded(): boolean {
    return this.failedAt !== null;
  }

  async admit(checks: readonly LimitCheck[]): Promise<AdmitResult> {
    if (this.failedAt !== null && Date.now() - this.failedAt < RETRY_AFTER_MS)
      return this.local.admit(checks);
    try {
      const result = await this.shared.admit(checks);
      if (this.failedAt !== null) {
        this.failedAt = null;
        this.log?.info('Redis answers again: rate limits and budgets are shared across nodes again');
      }
      return result;
    } catch (error) {
      if (this.failedAt === null) {
        this.log?.warn(
          { err: error },
          'Redis unreachable: rate limits and budgets are counted by this node alone',
        );
      }
      this.failedAt = Date.now();
      return this.local.admit(checks);
    }
  }

  async adjust(key: string, delta: number): Promise<void> {
    if (this.local.has(key)) return this.local.adjust(key, delta);
    try {
      await this.shared.adjust(key, delta);
    } catch (error) {
      this.log?.warn({ err: error, counter: key }, 'Redis unreachable: a limit counter was not corrected');
    }
  }
}
