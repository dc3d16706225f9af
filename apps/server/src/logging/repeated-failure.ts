/** How often a failure that repeats request after request is logged in full. */
const REPORT_EVERY_MS = 10_000;

/**
 * A failure every request meets while it lasts (the database away, its disk full): logged with its stack once
 * per interval, the ones between counted and named in the next report. Logged for each request, an outage of a
 * few seconds under load wrote thousands of identical stacks (~1,250 in 3 s measured), burying what came
 * before it and filling the disk the logs share.
 */
export class RepeatedFailureLog {
  private lastReportAt = Number.NEGATIVE_INFINITY;
  private suppressed = 0;

  constructor(
    private readonly intervalMs = REPORT_EVERY_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether to log this failure, and how many were not logged since the last one that was. */
  take(): { shouldLog: boolean; suppressed: number } {
    const now = this.now();
    if (now - this.lastReportAt < this.intervalMs) {
      this.suppressed += 1;
      return { shouldLog: false, suppressed: 0 };
    }
    const suppressed = this.suppressed;
    this.lastReportAt = now;
    this.suppressed = 0;
    return { shouldLog: true, suppressed };
  }
}
