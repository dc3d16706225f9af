import { StringDecoder } from 'node:string_decoder';

/**
 * Cuts a server-sent event stream into the `data:` payloads of complete events, however the bytes arrive
 * (events split across chunks, several per chunk, multi-byte characters cut in two, CRLF line ends).
 * Comments (`: keep-alive`) and events without data are skipped.
 */
export class SseEventSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';

  push(chunk: Buffer): string[] {
    let text = this.pending + this.decoder.write(chunk);
    if (text.includes('\r')) text = text.replace(/\r\n?/g, '\n');
    const payloads: string[] = [];
    let start = 0;
    for (let end = text.indexOf('\n\n'); end !== -1; end = text.indexOf('\n\n', start)) {
      const data = readData(text.slice(start, end));
      if (data !== null) payloads.push(data);
      start = end + 2;
    }
    this.pending = text.slice(start);
    return payloads;
  }

  /** An unterminated last event, when the stream ends without its blank line. */
  end(): string[] {
    const rest = (this.pending + this.decoder.end()).replace(/\r\n?/g, '\n');
    this.pending = '';
    const data = rest.trim() === '' ? null : readData(rest);
    return data === null ? [] : [data];
  }
}

function readData(event: string): string | null {
  // The common case, one `data: …` line, without splitting.
  if (event.startsWith('data: ') && !event.includes('\n')) return event.slice(6);
  let data: string | null = null;
  for (const line of event.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const value = line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5);
    data = data === null ? value : `${data}\n${value}`;
  }
  return data;
}
