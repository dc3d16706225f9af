import {
  kindFromStatus,
  type UpstreamErrorDetails,
  type UpstreamErrorKind,
} from '../../canonical/translation';

/** "too many tokens: total number of tokens in the prompt cannot exceed …" (https://docs.cohere.com/reference/errors) */
const CONTEXT_MESSAGE = /too many tokens|context (length|window)|prompt is too long/i;
/** A trial key's monthly call cap does not pass by retrying, unlike its per-minute limit. */
const QUOTA_MESSAGE = /per month|\/ ?month|billing|payment|credits?/i;

/**
 * Cohere's HTTP statuses (https://docs.cohere.com/reference/errors): 401 a missing, invalid or expired key,
 * 402 a billing limit, 404 an unknown model, 429 a rate limit, 498 an invalid token (older keys), 499 a
 * cancelled request, 500 a server error.
 */
function kindOf(status: number, message: string): UpstreamErrorKind {
  if (status === 401 || status === 498) return 'authentication';
  if (status === 402) return 'insufficient_quota';
  if (status === 429 && QUOTA_MESSAGE.test(message)) return 'insufficient_quota';
  if (status === 400 && CONTEXT_MESSAGE.test(message)) return 'context_length';
  return kindFromStatus(status);
}

/**
 * A Cohere error answer. Cohere's body is `{"id": "…", "message": "…"}` with the meaning in the HTTP status;
 * a body that is not Cohere's JSON keeps its first 500 characters as the message.
 */
export function readCohereError(body: Buffer, status: number): UpstreamErrorDetails {
  const text = body.toString('utf8').trim();
  let message = '';
  try {
    const parsed: unknown = JSON.parse(text);
    const field = (parsed as { message?: unknown } | null)?.message;
    if (typeof field === 'string') message = field;
  } catch {
    message = '';
  }
  message ||= text.slice(0, 500) || `Cohere answered HTTP ${status}`;
  return { message, type: '', code: status ? String(status) : '', kind: kindOf(status, message) };
}
