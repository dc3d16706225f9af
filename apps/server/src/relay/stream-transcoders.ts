import { chunkText } from '../canonical/completion-text';
import { UpstreamFormatError, type ChatStreamDecoder, type TokenUsage } from '../canonical/translation';
import type { ClientStreamEncoder, IngressCodec } from '../protocols/ingress-codec';
import type { SseEvent, StreamReader } from '../providers/provider-types';
import type { RelayError } from './relay-error';
import { SseEventSplitter } from './sse-event-splitter';

/** Turns an upstream's stream bytes into the client's stream text, on either lane. */
export interface StreamTranscoder {
  /** the content type of the stream the client gets */
  readonly contentType: string;
  /** upstream bytes → text for the client ('' while nothing is complete); may throw UpstreamFormatError */
  push(bytes: Buffer): string;
  /** the upstream body ended: what was still buffered, then the client protocol's end */
  end(): string;
  /** an error event for the client, when the stream breaks after it started */
  error(error: RelayError): string;
  /** usage when reported, else the text produced so far (for counting) */
  finish(): { usage: TokenUsage | null; completionText: string };
}

const EVENT_STREAM = 'text/event-stream; charset=utf-8';

/** `raw` ends without the blank line; an event is written back with it. */
function writeEvents(events: readonly SseEvent[]): string {
  let text = '';
  for (const event of events) text += `${event.raw}\n\n`;
  return text;
}

/** Same protocol on both ends: events forwarded as they came (the adapter's reader only drops or adds some). */
export function createPassThroughTranscoder(
  reader: StreamReader,
  codec: IngressCodec,
  requestId: string,
): StreamTranscoder {
  const splitter = new SseEventSplitter();
  const framer = codec.createEventFramer?.() ?? null;
  const isLast = codec.isLastStreamEvent;
  // The protocol's last event and what follows it wait for end(), which is written once the charge is committed.
  let held = '';
  let isEmpty = true;
  // What came before the first real event (OpenAI's end, `[DONE]`, which other protocols pass on as it came):
  // written only with that event, so a stream of nothing else fails before the client got a byte.
  let beforeFirst = '';
  const forward = (events: SseEvent[]) => {
    let text = '';
    for (const event of events) {
      if (isEmpty && event.data !== '[DONE]') isEmpty = false;
      const written = reader.readEvent(event);
      if (!isLast && !framer) {
        text += writeEvents(written);
        continue;
      }
      for (const each of written) {
        const framed = framer ? framer.frame(each.data) : `${each.raw}\n\n`;
        if (held !== '' || isLast?.(each)) held += framed;
        else text += framed;
      }
    }
    if (isEmpty) {
      beforeFirst += text;
      return '';
    }
    if (beforeFirst === '') return text;
    text = beforeFirst + text;
    beforeFirst = '';
    return text;
  };
  return {
    contentType: codec.streamContentType ?? EVENT_STREAM,
    push: (bytes) => forward(splitter.pushEvents(bytes)),
    end: () => {
      const rest = forward(splitter.endEvents()) + held;
      // Not one event (an empty body, a proxy's HTML page): nothing was produced, so nothing is delivered.
      if (isEmpty) throw new UpstreamFormatError('the upstream stream was empty');
      held = '';
      return rest + (framer ? framer.end() : codec.streamEnd);
    },
    error: (error) => codec.encodeStreamError(error, requestId),
    finish: () => reader.finish(),
  };
}

/** Across protocols: the vendor's stream decoded into canonical chunks, encoded in the client's protocol. */
export function createTranslatedTranscoder(
  decoder: ChatStreamDecoder,
  encoder: ClientStreamEncoder,
  codec: IngressCodec,
  requestId: string,
): StreamTranscoder {
  const texts: string[] = [];
  const encode = (chunks: ReturnType<ChatStreamDecoder['push']>) => {
    let text = '';
    for (const chunk of chunks) {
      texts.push(chunkText(chunk));
      text += encoder.encode(chunk);
    }
    return text;
  };
  return {
    contentType: codec.streamContentType ?? EVENT_STREAM,
    push: (bytes) => encode(decoder.push(bytes)),
    end: () => encode(decoder.end()) + encoder.finish(decoder.usage()),
    error: (error) => codec.encodeStreamError(error, requestId),
    finish: () => {
      const usage = decoder.usage();
      return { usage, completionText: usage ? '' : texts.join('') };
    },
  };
}
