import type { ChatChunk } from '../../canonical/chat';

/**
 * Reads a stream's events so that what came before a failure is answered first: an event that throws after
 * others gave chunks ends the batch, and its error is thrown by the next call (the next read, or `throwPending`
 * at the end). An error on the first chunk-less event of a batch is thrown at once.
 */
export class ChunksBeforeFailure {
  private pendingError: unknown = null;

  read<T>(events: T[], readEvent: (event: T) => ChatChunk[]): ChatChunk[] {
    this.throwPending();
    const chunks: ChatChunk[] = [];
    for (const event of events) {
      try {
        chunks.push(...readEvent(event));
      } catch (error) {
        if (chunks.length === 0) throw error;
        this.pendingError = error;
        break;
      }
    }
    return chunks;
  }

  /** Throws the failure held back from the last read, if any. */
  throwPending(): void {
    if (this.pendingError) throw this.pendingError;
  }
}
