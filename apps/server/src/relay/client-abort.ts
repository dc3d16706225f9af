import { EventEmitter } from 'node:events';

/**
 * Fires once when the client goes away, cancelling the upstream call (undici takes an emitter of 'abort' as
 * its signal). Lighter than an AbortController, which the relay would build on every request.
 */
export class ClientAbort extends EventEmitter {
  isAborted = false;

  abort(): void {
    if (this.isAborted) return;
    this.isAborted = true;
    this.emit('abort');
  }
}
