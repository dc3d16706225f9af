import type { ChatChunk, ChatDelta, FinishReason } from '../../canonical/chat';
import { completionToChunks } from '../../canonical/completion-text';
import { convertToChatUsage } from '../../canonical/convert-token-usage';
import type { ChatAnswer, ChatStreamDecoder, TokenUsage } from '../../canonical/translation';
import { ChunksBeforeFailure } from './chunks-before-failure';
import { incompleteStreamError } from './incomplete-stream-error';
import { JsonOrEventBody } from './json-or-event-body';
import { deltaChunk, finishChunks, type ChunkHead } from './stream-chunks';

/** What one event of a vendor's chat stream adds to the answer; empty and missing fields add nothing. */
export type VendorDeltaFields = Omit<ChatDelta, 'role'>;

/**
 * The state of one streamed answer of a vendor whose events each carry a piece of the message, the usage so
 * far and, at the end, a finish reason: the role goes on the first delta, the finish reason and a usage-only
 * chunk (the last usage counts) are sent once.
 */
export class VendorChatTurn {
  usage: TokenUsage | null = null;
  isStarted = false;
  isFinished = false;

  /** Keeps the usage an event reports, when it reports one. */
  noteUsage(usage: TokenUsage | null): void {
    this.usage = usage ?? this.usage;
  }

  /** One event's chunks: its delta, when it adds anything, then (the first time a finish reason comes) the end. */
  chunks(head: ChunkHead, fields: VendorDeltaFields, finish: FinishReason | null): ChatChunk[] {
    const delta: ChatDelta = this.isStarted ? {} : { role: 'assistant' };
    this.isStarted = true;
    for (const [key, value] of Object.entries(fields)) {
      if (!value || (Array.isArray(value) && value.length === 0)) continue;
      Object.assign(delta, { [key]: value });
    }
    const chunks = Object.keys(delta).length > 0 ? [deltaChunk(head, delta)] : [];
    if (finish && !this.isFinished) {
      this.isFinished = true;
      chunks.push(...finishChunks(head, finish, this.usage ? convertToChatUsage(this.usage) : null));
    }
    return chunks;
  }
}

/** How one vendor's chat stream is read; the decoder around it is the same for every such vendor. */
export interface VendorChatStream<Event> {
  vendor: string;
  /** What a whole stream ends with, named as the vendor's documentation does (in the error of a cut stream). */
  finalEvent: string;
  /** The stream's events as they come (data payloads or whole SSE events), and what is left at the end. */
  split: { push(bytes: Buffer): Event[]; end(): Event[] };
  /** One event's chunks, built with `turn.chunks`; throws what the event reports as a failure. */
  readEvent(event: Event, turn: VendorChatTurn): ChatChunk[];
  /** A body that is one JSON answer (a server that ignored the stream flag, or an error object). */
  readAnswer(body: Buffer): ChatAnswer;
  /** Whether a stream that sent no finish reason is still whole (events of another shape that end otherwise). */
  isWholeWithoutFinish?(): boolean;
}

/**
 * The decoder of a vendor chat stream: a JSON body is read whole at the end; events are read as they come, a
 * failure after other chunks thrown after them; a stream without its finish throws UpstreamFormatError at end().
 */
export function createVendorChatStreamDecoder<Event>(stream: VendorChatStream<Event>): ChatStreamDecoder {
  const body = new JsonOrEventBody();
  const failures = new ChunksBeforeFailure();
  const turn = new VendorChatTurn();
  const readAll = (events: Event[]) => failures.read(events, (event) => stream.readEvent(event, turn));

  return {
    push: (bytes) => (body.holdJson(bytes) ? [] : readAll(stream.split.push(bytes))),
    end() {
      const json = body.json();
      if (json) {
        const answer = stream.readAnswer(json);
        turn.usage = answer.usage;
        return completionToChunks(answer.completion);
      }
      const chunks = readAll(stream.split.end());
      failures.throwPending();
      if (!turn.isFinished && !stream.isWholeWithoutFinish?.()) {
        throw incompleteStreamError(stream.vendor, turn.isStarted, stream.finalEvent);
      }
      return chunks;
    },
    usage: () => turn.usage,
  };
}
