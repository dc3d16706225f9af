/** How much of an error answer that is not the vendor's JSON (a proxy's HTML page) becomes the message. */
const EXCERPT_LENGTH = 500;

export interface ErrorBody {
  /** the answer's start, trimmed: the message when the JSON says nothing ('' for an empty answer) */
  excerpt: string;
  /** the parsed answer, or null when it is not JSON */
  json: unknown;
}

/** An upstream error answer read once for every vendor's error reader: its JSON, and its text to fall back on. */
export function readErrorBody(body: Buffer): ErrorBody {
  const text = body.toString('utf8').trim();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { excerpt: text.slice(0, EXCERPT_LENGTH), json };
}
