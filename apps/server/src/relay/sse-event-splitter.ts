import { StringDecoder } from 'node:string_decoder';
import type { SseEvent } from '../providers/provider-types';

/**
 * Cuts a server-sent event stream into complete events, however the bytes arrive (events split across
 * chunks, several per chunk, multi-byte characters cut in two, CRLF line ends). Comments (`: keep-alive`) and
 * events without data are skipped. `push` answers the `data:` payloads only (all a decoder of JSON events
 * needs); `pushEvents` answers whole events with their `event:` names, for streams forwarded as they came.
 */
export class SseEventSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';

  push(chunk: Buffer): string[] {
    const payloads: string[] = [];
    this.split(chunk, (block) => {
      const data = readData(block);
      if (data !== null) payloads.push(data);
    });
    return payloads;
  }

  /** An unterminated last event, when the stream ends without its blank line. */
  end(): string[] {
    const rest = this.takeRest();
    const data = rest === null ? null : readData(rest);
    return data === null ? [] : [data];
  }

  pushEvents(chunk: Buffer): SseEvent[] {
    const events: SseEvent[] = [];
    this.split(chunk, (block) => {
      const event = readEvent(block);
      if (event !== null) events.push(event);
    });
    return events;
  }

  endEvents(): SseEvent[] {
    const rest = this.takeRest();
    const event = rest === null ? null : readEvent(rest);
    return event === null ? [] : [event];
  }

  private split(chunk: Buffer, take: (block: string) => void): void {
    let text = this.pending + this.decoder.write(chunk);
    if (text.includes('\r')) text = text.replace(/\r\n?/g, '\n');
    let start = 0;
    for (let end = text.indexOf('\n\n'); end !== -1; end = text.indexOf('\n\n', start)) {
      take(text.slice(start, end));
      start = end + 2;
    }
    this.pending = text.slice(start);
  }

  private takeRest(): string | null {
    const rest = (this.pending + this.decoder.end()).replace(/\r\n?/g, '\n').replace(/\n+$/, '');
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
