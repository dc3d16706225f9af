/** One part of a multipart/form-data body, located by byte offsets (the file is never copied). */
export interface MultipartPart {
  name: string;
  filename: string | null;
  /** where the value starts and ends in the body */
  start: number;
  end: number;
}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

export function readBoundary(contentType: string): string | null {
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match ? (match[1] ?? match[2]) : null;
}

function readDisposition(headers: string): { name: string; filename: string | null } | null {
  const line = headers.split('\r\n').find((header) => /^content-disposition:/i.test(header));
  if (!line) return null;
  const name = /\bname="([^"]*)"/i.exec(line)?.[1];
  if (name === undefined) return null;
  return { name, filename: /\bfilename="([^"]*)"/i.exec(line)?.[1] ?? null };
}

/** The parts of a multipart body (RFC 7578), or null when it is not well formed. */
export function parseMultipart(body: Buffer, boundary: string): MultipartPart[] | null {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: MultipartPart[] = [];
  let cursor = body.indexOf(delimiter);
  if (cursor < 0) return null;
  for (;;) {
    cursor += delimiter.length;
    if (body[cursor] === 45 && body[cursor + 1] === 45) return parts; // "--": the closing delimiter
    if (!body.subarray(cursor, cursor + 2).equals(CRLF)) return null;
    const headersEnd = body.indexOf(HEADER_END, cursor + 2);
    if (headersEnd < 0) return null;
    const disposition = readDisposition(body.toString('latin1', cursor + 2, headersEnd));
    const start = headersEnd + HEADER_END.length;
    const next = body.indexOf(Buffer.concat([CRLF, delimiter]), start);
    if (next < 0 || !disposition) return null;
    parts.push({ ...disposition, start, end: next });
    cursor = next + CRLF.length;
  }
}

export function readTextPart(body: Buffer, parts: MultipartPart[], name: string): string | undefined {
  const part = parts.find((candidate) => candidate.name === name && candidate.filename === null);
  return part ? body.toString('utf8', part.start, part.end) : undefined;
}

/** The body with one text field's value replaced (the model, when the channel maps it). */
export function replaceTextPart(body: Buffer, part: MultipartPart, value: string): Buffer {
  return Buffer.concat([body.subarray(0, part.start), Buffer.from(value, 'utf8'), body.subarray(part.end)]);
}
