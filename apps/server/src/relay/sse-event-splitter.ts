import { StringDecoder } from 'node:string_decoder';
import type { SseEvent } from '../providers/provider-types';

/**
 * Cuts a server-sent event stream into complete events, however the bytes arrive (events split across
 * chunks, several per chunk, multi-byte characters cut in two, CRLF line ends). Comments (`: keep-alive`) and
 * events without data are skipped. `push` answers the `data:` payloads only (all a decoder of JSON events
 * needs); `pushEvents` answers whole events with their `event:` names, for streams forwarded as they came.
 */
export class SseEventSplitter {
  /** made when a chunk first ends inside a character; until then each chunk is decoded whole */
  private decoder: StringDecoder | null = null;
  private pending = '';
  /** the text being cut into blocks (pending and the latest chunk), and where its next block starts */
  private text = '';
  private start = 0;

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

  private feed(chunk: Buffer): void {
    let text = this.pending + this.decode(chunk);
    if (text.includes('\r')) text = text.replace(/\r\n?/g, '\n');
    this.text = text;
    this.start = 0;
  }

  /** The next complete block of the text fed, or null when the rest waits for more bytes (kept as pending). */
  private nextBlock(): string | null {
    const end = this.text.indexOf('\n\n', this.start);
    if (end === -1) {
      this.pending = this.text.slice(this.start);
      this.text = '';
      return null;
    }
    const block = this.text.slice(this.start, end);
    this.start = end + 2;
    return block;
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
    const rest = (this.pending + (this.decoder?.end() ?? '')).replace(/\r\n?/g, '\n').replace(/\n+$/, '');
    this.pending = '';
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
