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
 * decodes each with the AWS SDK's codec (which checks both CRCs). A frame's first four bytes are its total
 * length. The bytes of a frame not complete yet are kept as they came and joined once it is (joining them at
 * every chunk copied a 16 MB frame in 16 KB chunks a thousand times over).
 */
export class EventStreamFrameSplitter {
  private chunks: Buffer[] = [];
  private collected = 0;

  push(bytes: Buffer): EventStreamMessage[] {
    if (bytes.length > 0) {
      this.chunks.push(bytes);
      this.collected += bytes.length;
    }
    const messages: EventStreamMessage[] = [];
    while (this.collected >= 4) {
      const head = this.chunks[0]!.length >= 4 ? this.chunks[0]! : this.joined();
      const length = head.readUInt32BE(0);
      if (length < MIN_FRAME_BYTES || length > MAX_FRAME_BYTES) {
        throw new UpstreamFormatError(`${BEDROCK} streamed something that is not an AWS event stream`);
      }
      if (this.collected < length) break;
      const pending = this.joined();
      messages.push(this.decode(pending.subarray(0, length)));
      const rest = pending.subarray(length);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.collected = rest.length;
    }
    return messages;
  }

  /** The bytes kept, as one buffer (kept so from then on). */
  private joined(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks, this.collected)];
    return this.chunks[0]!;
  }

  /** The body ended: a partial frame means the stream was cut. */
  end(): void {
    if (this.collected > 0) {
      throw new UpstreamFormatError(`${BEDROCK} stream ended inside an event (${this.collected} bytes left)`);
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
