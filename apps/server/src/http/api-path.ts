const SLASH = 0x2f;
const QUESTION_MARK = 0x3f;

/**
 * Whether `url` (path and query) is `prefix` itself or below it: the prefix followed by the end, a slash or the
 * query. Read in place: the hooks of every request ask this several times, and splitting the query off first
 * allocated an array and a string each time.
 */
function isAtOrBelow(url: string, prefix: string): boolean {
  if (!url.startsWith(prefix)) return false;
  if (url.length === prefix.length) return true;
  const next = url.charCodeAt(prefix.length);
  return next === SLASH || next === QUESTION_MARK;
}

/** Whether a request URL (path and query) is on the management API, /api/*. */
export function isManagementApiUrl(url: string): boolean {
  return isAtOrBelow(url, '/api');
}

/** Whether a request URL is on the relay (/v1, /v1beta) or the OpenAI-style billing endpoints (/dashboard/*). */
export function isRelayUrl(url: string): boolean {
  return isAtOrBelow(url, '/v1') || isAtOrBelow(url, '/v1beta') || url.startsWith('/dashboard/');
}
