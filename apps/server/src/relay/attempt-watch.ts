import { performance } from 'node:perf_hooks';
import { ClientAbort } from './client-abort';

/**
 * One attempt on one channel: the signal its upstream call listens to, the time until the upstream's answer
 * began, and — for streams with StreamFirstTokenTimeout — a timer that cuts the attempt when no byte of the
 * upstream's answer came in time. The signal then fires for this attempt only: the client is still there,
 * and the next channel is tried.
 */
export class AttemptWatch {
  /** what the upstream call is cancelled by: the client's abort, or this attempt's own */
  readonly signal: ClientAbort;
  /** milliseconds from sending until the answer's headers; null until they came */
  latencyMs: number | null = null;
  /** the first-token timer fired and cut the attempt */
  hasTimedOut = false;
  private readonly startedAt = performance.now();
  private timer: NodeJS.Timeout | null = null;
  private readonly forward: (() => void) | null = null;

  constructor(
    private readonly clientAbort: ClientAbort,
    readonly firstByteTimeoutMs: number,
  ) {
    if (firstByteTimeoutMs <= 0) {
      this.signal = clientAbort;
      return;
    }
    const own = new ClientAbort();
    this.signal = own;
    this.forward = () => own.abort();
    if (clientAbort.isAborted) own.abort();
    else clientAbort.once('abort', this.forward);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.hasTimedOut = true;
      own.abort();
    }, firstByteTimeoutMs);
  }

  /** The upstream's answer began (its status and headers came). */
  answered(): void {
    this.latencyMs = performance.now() - this.startedAt;
  }

  /** A byte of the upstream's body came: the first-token timer is done. */
  firstByte(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
  }

  /** The attempt is over, whatever its outcome. */
  stop(): void {
    this.firstByte();
    if (this.forward) this.clientAbort.off('abort', this.forward);
  }
}
