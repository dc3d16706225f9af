/** JSON whitespace, before the first byte that says whether the body is an event stream or one answer. */
const isWhitespace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/**
 * The body of a stream request, told by its first byte that is not JSON whitespace: `{` starts one JSON
 * answer (a server that ignored `stream: true`, or an error object), held whole until the end; anything else
 * is an event stream, whose bytes go on to the decoder as they come.
 */
export class JsonOrEventBody {
  private mode: 'unknown' | 'events' | 'json' = 'unknown';
  private readonly jsonParts: Buffer[] = [];

  /** Whether these bytes were held as part of a JSON answer; when not, they belong to the event stream. */
  holdJson(bytes: Buffer): boolean {
    if (this.mode === 'unknown') this.detectMode(bytes);
    if (this.mode !== 'json') return false;
    this.jsonParts.push(bytes);
    return true;
  }

  /** The whole JSON answer, or null when the body is an event stream. */
  json(): Buffer | null {
    return this.mode === 'json' ? Buffer.concat(this.jsonParts) : null;
  }

  private detectMode(bytes: Buffer): void {
    for (const byte of bytes) {
      if (isWhitespace(byte)) continue;
      this.mode = byte === 0x7b ? 'json' : 'events';
      return;
    }
  }
}
