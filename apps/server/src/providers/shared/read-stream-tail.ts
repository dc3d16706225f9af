import type { ChatChunk } from '../../canonical/chat';

/**
 * The events left in a stream's buffer when it ends. A cut stream leaves half an event, which fails to parse:
 * that failure is no news (the cut is, and the caller reports it), so it is dropped with the half event —
 * unless the stream had already completed, or the failure is the vendor's own error report.
 */
export function readStreamTail(
  read: () => ChatChunk[],
  isComplete: () => boolean,
  isVendorReport: (error: unknown) => boolean,
): ChatChunk[] {
  try {
    return read();
  } catch (error) {
    if (isComplete() || isVendorReport(error)) throw error;
    return [];
  }
}
