import type { EventStreamCodec } from '@smithy/core/event-streams';
import { UpstreamFormatError } from '../../canonical/translation';
import { BEDROCK } from './bedrock-converse-types';
import { smithyEventStreams, smithySerde } from './smithy-packages';

let codec: EventStreamCodec | undefined;

/** The AWS SDK's event stream codec, made on a Bedrock channel's first stream. */
function eventStreamCodec(): EventStreamCodec {
  const { fromUtf8, toUtf8 } = smithySerde();
  return (codec ??= new (smithyEventStreams().EventStreamCodec)(toUtf8, fromUtf8));
}

export type EventStreamMessage = ReturnType<EventStreamCodec['decode']>;

/** Prelude (total length, headers length, prelude CRC) and message CRC. */
const MIN_FRAME_BYTES = 16;
/** Payloads are at most 16 MiB and headers 128 KiB; a larger length means the body is not an event stream. */
const MAX_FRAME_BYTES = 16 * 1024 * 1024 + 128 * 1024 + MIN_FRAME_BYTES;

/**
 * Cuts an `application/vnd.amazon.eventstream` body into whole messages, wherever the network split it, and
 * decodes each with the AWS SDK's codec (which checks both CRCs). A frame's first four bytes are its total length.
 */
export class EventStreamFrameSplitter {
  private pending: Buffer = Buffer.alloc(0);

  push(bytes: Buffer): EventStreamMessage[] {
    this.pending = this.pending.length === 0 ? bytes : Buffer.concat([this.pending, bytes]);
    const messages: EventStreamMessage[] = [];
    while (this.pending.length >= 4) {
      const length = this.pending.readUInt32BE(0);
      if (length < MIN_FRAME_BYTES || length > MAX_FRAME_BYTES) {
        throw new UpstreamFormatError(`${BEDROCK} streamed something that is not an AWS event stream`);
      }
      if (this.pending.length < length) break;
      messages.push(this.decode(this.pending.subarray(0, length)));
      this.pending = this.pending.subarray(length);
    }
    return messages;
  }

  /** The body ended: a partial frame means the stream was cut. */
  end(): void {
    if (this.pending.length > 0) {
      throw new UpstreamFormatError(
        `${BEDROCK} stream ended inside an event (${this.pending.length} bytes left)`,
      );
    }
  }

  private decode(frame: Buffer): EventStreamMessage {
    try {
      return eventStreamCodec().decode(frame);
    } catch (error) {
      throw new UpstreamFormatError(`${BEDROCK} streamed a damaged event: ${(error as Error).message}`);
    }
  }
}
