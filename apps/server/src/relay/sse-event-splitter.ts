import { StringDecoder } from 'node:string_decoder';
import { UpstreamFormatError } from '../canonical/translation';
import type { SseEvent } from '../providers/provider-types';

/**
 * The longest event a stream may send, in characters (64 MB of ASCII: a 4K image inlined as base64 is ~20 MB).
 * An event is held whole until its blank line comes; without a bound, an upstream that never sends one would
 * be taken in until the process ran out of memory.
 */
export const MAX_EVENT_CHARACTERS = 64 * 1024 * 1024;

/** A limit in words: "64 MB", or bytes below a megabyte. */
export function describeSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${bytes} bytes`;
}

/** The upstream sent an event longer than the splitter holds: a malformed answer (the stream fails with it). */
export class UpstreamEventTooLong extends UpstreamFormatError {
  constructor(limit: number) {
    super(`The upstream sent a stream event longer than ${describeSize(limit)}; it was cut`);
  }
}

const LINE_FEED = 10;

/**
 * Cuts a server-sent event stream into complete events, however the bytes arrive (events split across
 * chunks, several per chunk, multi-byte characters cut in two, CRLF line ends cut in two). Comments
 * (`: keep-alive`) and events without data are skipped. `push` answers the `data:` payloads only (all a
 * decoder of JSON events needs); `pushEvents` answers whole events with their `event:` names, for streams
 * forwarded as they came.
 *
 * Linear in the stream's length: each chunk is searched once, and the start of an event that is not finished
 * yet is kept in pieces, joined once when its end comes (searching and joining the whole unfinished text again
 * for every chunk took 3.7 s of the event loop for a 10 MB event in 16 KB chunks).
 */
export class SseEventSplitter {
  /** made when a chunk first ends inside a character; until then each chunk is decoded whole */
  private decoder: StringDecoder | null = null;
  /** a chunk's last `\r`, held until the next chunk tells whether a `\n` follows it */
  private isCarriageReturnHeld = false;
  /** the unfinished event of earlier chunks, in pieces (none holds a blank line) */
  private pieces: string[] = [];
  private piecesLength = 0;
  /** the last piece ends with a line feed: a chunk starting with one ends the event */
  private doPiecesEndWithLineFeed = false;
  /** the latest chunk's text, and where its next block starts */
  private text = '';
  private start = 0;

  constructor(private readonly maxEventCharacters = MAX_EVENT_CHARACTERS) {}

  push(chunk: Buffer): string[] {
    this.feed(chunk);
    // Mostly a chunk holds one event: no array is grown for it, nor a callback made per call.
    let first: string | null = null;
    let payloads: string[] | null = null;
    for (let block = this.nextBlock(); block !== null; block = this.nextBlock()) {
      const data = readData(block);
      if (data === null) continue;
      if (first === null) first = data;
      else if (payloads === null) payloads = [first, data];
      else payloads.push(data);
    }
    return payloads ?? (first === null ? [] : [first]);
  }

  /** An unterminated last event, when the stream ends without its blank line. */
  end(): string[] {
    const rest = this.takeRest();
    const data = rest === null ? null : readData(rest);
    return data === null ? [] : [data];
  }

  pushEvents(chunk: Buffer): SseEvent[] {
    this.feed(chunk);
    let first: SseEvent | null = null;
    let events: SseEvent[] | null = null;
    for (let block = this.nextBlock(); block !== null; block = this.nextBlock()) {
      const event = readEvent(block);
      if (event === null) continue;
      if (first === null) first = event;
      else if (events === null) events = [first, event];
      else events.push(event);
    }
    return events ?? (first === null ? [] : [first]);
  }

  endEvents(): SseEvent[] {
    const rest = this.takeRest();
    const event = rest === null ? null : readEvent(rest);
    return event === null ? [] : [event];
  }

  /** The chunk's text with every line end made `\n` (a `\r` at its end waits for the next chunk). */
  private feed(chunk: Buffer): void {
    let text = this.decode(chunk);
    if (this.isCarriageReturnHeld) {
      text = `\r${text}`;
      this.isCarriageReturnHeld = false;
    }
    if (text.includes('\r')) {
      if (text.charCodeAt(text.length - 1) === 13) {
        text = text.slice(0, -1);
        this.isCarriageReturnHeld = true;
      }
      text = text.replace(/\r\n?/g, '\n');
    }
    this.text = text;
    this.start = 0;
  }

  /** The next complete block, or null when the rest waits for more bytes (kept in pieces). */
  private nextBlock(): string | null {
    const text = this.text;
    if (this.start === 0 && this.pieces.length > 0) {
      // This chunk may finish the event the earlier ones began: search its own text only.
      if (this.doPiecesEndWithLineFeed && text.charCodeAt(0) === LINE_FEED) {
        this.start = 1;
        return this.takePieces().slice(0, -1);
      }
      const end = text.indexOf('\n\n');
      if (end === -1) return this.keep(text);
      this.start = end + 2;
      return this.takePieces() + text.slice(0, end);
    }
    const end = text.indexOf('\n\n', this.start);
    if (end === -1) return this.keep(this.start === 0 ? text : text.slice(this.start));
    const block = text.slice(this.start, end);
    this.start = end + 2;
    return block;
  }

  /** Keeps the rest of the chunk as a piece of the unfinished event; answers null (no block). */
  private keep(rest: string): null {
    this.text = '';
    this.start = 0;
    if (rest.length === 0) return null;
    this.pieces.push(rest);
    this.piecesLength += rest.length;
    this.doPiecesEndWithLineFeed = rest.charCodeAt(rest.length - 1) === LINE_FEED;
    if (this.piecesLength > this.maxEventCharacters) throw new UpstreamEventTooLong(this.maxEventCharacters);
    return null;
  }

  private takePieces(): string {
    const joined = this.pieces.length === 1 ? this.pieces[0] : this.pieces.join('');
    this.pieces = [];
    this.piecesLength = 0;
    this.doPiecesEndWithLineFeed = false;
    return joined;
  }

  /**
   * The chunk's text. A chunk that ends on an ASCII byte (an event's line end, nearly always) holds whole
   * characters only: it is decoded as it is, without a StringDecoder per stream (and its buffer). From the
   * first chunk that ends otherwise on, the decoder carries the cut characters over.
   */
  private decode(chunk: Buffer): string {
    const last = chunk.length === 0 ? 0 : chunk[chunk.length - 1];
    if (this.decoder === null && last !== undefined && last < 0x80 && Buffer.isBuffer(chunk)) {
      return chunk.toString('utf8');
    }
    this.decoder ??= new StringDecoder('utf8');
    return this.decoder.write(chunk);
  }

  private takeRest(): string | null {
    const tail = (this.decoder?.end() ?? '') + (this.isCarriageReturnHeld ? '\n' : '');
    this.isCarriageReturnHeld = false;
    const rest = (this.takePieces() + tail.replace(/\r\n?/g, '\n')).replace(/\n+$/, '');
    return rest.trim() === '' ? null : rest;
  }
}

function readData(block: string): string | null {
  // The common case, one `data: …` line, without splitting.
  if (block.startsWith('data: ') && !block.includes('\n')) return block.slice(6);
  let data: string | null = null;
  for (const line of block.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const value = line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5);
    data = data === null ? value : `${data}\n${value}`;
  }
  return data;
}

function readEvent(block: string): SseEvent | null {
  if (block.startsWith('data: ') && !block.includes('\n')) {
    return { event: null, data: block.slice(6), raw: block };
  }
  let event: string | null = null;
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) event = line.slice(line.charCodeAt(6) === 32 ? 7 : 6);
  }
  const data = readData(block);
  return data === null ? null : { event, data, raw: block };
}
