import {
  kindFromStatus,
  type UpstreamErrorDetails,
  type UpstreamErrorKind,
} from '../../canonical/translation';

/**
 * DeepL's statuses (https://developers.deepl.com/docs/best-practices/error-handling): 403 a key refused (or
 * a Free key at the Pro address and the reverse: "Wrong endpoint"), 456 the character quota or the Cost
 * Control limit used up, 429 (and 529, DeepL's older "too many requests") a rate limit, 413 a body too large.
 */
function kindOf(status: number): UpstreamErrorKind {
  if (status === 403) return 'authentication';
  if (status === 456) return 'insufficient_quota';
  if (status === 429 || status === 529) return 'rate_limit';
  return kindFromStatus(status);
}

/** A DeepL error answer: `{"message": "…"}` (sometimes with a detail), or nothing at all. */
export function readDeepLError(body: Buffer, status: number): UpstreamErrorDetails {
  const text = body.toString('utf8').trim();
  let message = '';
  try {
    const parsed = JSON.parse(text) as { message?: unknown; detail?: unknown };
    if (typeof parsed.message === 'string') {
      message = typeof parsed.detail === 'string' ? `${parsed.message}: ${parsed.detail}` : parsed.message;
    }
  } catch {
    message = '';
  }
  message ||= text.slice(0, 500) || `DeepL answered HTTP ${status}`;
  return { message, type: '', code: status ? String(status) : '', kind: kindOf(status) };
}
