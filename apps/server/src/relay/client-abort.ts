import { EventEmitter } from 'node:events';

/**
 * Fires once when the client goes away, cancelling the upstream call (undici takes an emitter of 'abort' as
 * its signal). Lighter than an AbortController, which the relay would build on every request.
 */
export class ClientAbort extends EventEmitter {
  isAborted = false;

  /** undici reads this first: a signal that already fired cancels the call before it is sent */
  get aborted(): boolean {
    return this.isAborted;
  }

  abort(): void {
    if (this.isAborted) return;
    this.isAborted = true;
    this.emit('abort');
  }
}
