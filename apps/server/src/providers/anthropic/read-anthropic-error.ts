import {
  kindFromStatus,
  type UpstreamErrorDetails,
  type UpstreamErrorKind,
} from '../../canonical/translation';
import { readErrorBody } from '../shared/read-error-body';

/** Anthropic's error types (https://docs.anthropic.com/en/api/errors) as the kinds the relay acts on. */
const KIND_OF_TYPE: Record<string, UpstreamErrorKind> = {
  invalid_request_error: 'invalid_request',
  request_too_large: 'invalid_request',
  authentication_error: 'authentication',
  permission_error: 'permission',
  billing_error: 'insufficient_quota',
  not_found_error: 'not_found',
  rate_limit_error: 'rate_limit',
  api_error: 'server',
  timeout_error: 'server',
  overloaded_error: 'overloaded',
};

/** For answers that are not Anthropic's JSON (a proxy's HTML page, a cut body); 402 is its billing_error. */
const kindOfStatus = (status: number): UpstreamErrorKind =>
  status === 402 ? 'insufficient_quota' : kindFromStatus(status);

/**
 * Anthropic words an empty balance as a 400 invalid_request_error ("Your credit balance is too low …"), a
 * workspace's spend limit as 400 ("… reached your specified API usage limits") or as 429 with the error code
 * enforced_spend_limit_reached; none of them passes by retrying, unlike a real rate limit.
 */
const QUOTA_MESSAGE = /credit balance is too low|api usage limits|spend limit/i;
const QUOTA_CODES = new Set(['enforced_spend_limit_reached']);

/** "prompt is too long: 208310 tokens > 200000 maximum", "input length and `max_tokens` exceed context limit" */
const CONTEXT_MESSAGE = /prompt is too long|exceeds? (the )?context|context (window|limit)/i;

function refineKind(kind: UpstreamErrorKind, message: string, code: string): UpstreamErrorKind {
  if (QUOTA_CODES.has(code) || QUOTA_MESSAGE.test(message)) return 'insufficient_quota';
  if (kind === 'invalid_request' && CONTEXT_MESSAGE.test(message)) return 'context_length';
  return kind;
}

const asText = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The parsed error object `{type: "error", error: {type, message}}`, or null when it is not one. */
export function readAnthropicErrorObject(value: unknown, status = 0): UpstreamErrorDetails | null {
  if (typeof value !== 'object' || value === null) return null;
  const error = (value as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return null;
  const fields = error as { type?: unknown; message?: unknown; details?: unknown };
  const type = asText(fields.type);
  const message = asText(fields.message);
  const details = fields.details;
  const code =
    typeof details === 'object' && details !== null
      ? asText((details as { error_code?: unknown }).error_code)
      : '';
  const kind = KIND_OF_TYPE[type] ?? kindOfStatus(status);
  return { message, type, code: code || type, kind: refineKind(kind, message, code) };
}

/**
 * An Anthropic error answer as the relay reports it. `code` is Anthropic's error_code when it gives one,
 * else its error type. A body that is not Anthropic's JSON keeps its first 500 characters as the message and
 * takes its kind from the HTTP status.
 */
export function readAnthropicError(body: Buffer, status = 0): UpstreamErrorDetails {
  const { excerpt, json } = readErrorBody(body);
  const details = readAnthropicErrorObject(json, status);
  if (details) return details;
  const message = excerpt || (status ? `Anthropic answered HTTP ${status}` : 'Anthropic answered nothing');
  return { message, type: '', code: '', kind: refineKind(kindOfStatus(status), message, '') };
}
