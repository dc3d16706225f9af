import type { UpstreamErrorDetails, UpstreamErrorKind } from '../../canonical/translation';
import type { GeminiErrorDetail } from './gemini-wire-types';
import { readErrorBody } from '../shared/read-error-body';

/** google.rpc.Code names (https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes) by kind. */
const kindByStatus: Record<string, UpstreamErrorKind> = {
  UNAUTHENTICATED: 'authentication',
  PERMISSION_DENIED: 'permission',
  // "User location is not supported", "billing must be enabled": the channel cannot serve anyone.
  FAILED_PRECONDITION: 'permission',
  RESOURCE_EXHAUSTED: 'rate_limit',
  UNAVAILABLE: 'overloaded',
  INVALID_ARGUMENT: 'invalid_request',
  OUT_OF_RANGE: 'invalid_request',
  NOT_FOUND: 'not_found',
  INTERNAL: 'server',
  DEADLINE_EXCEEDED: 'server',
  UNKNOWN: 'server',
};

/** An invalid or expired key is a 400 INVALID_ARGUMENT whose ErrorInfo reason says so. */
const KEY_REASONS = new Set(['API_KEY_INVALID', 'API_KEY_EXPIRED']);
const TOO_LONG = /input token count|exceeds the maximum number of tokens|too long|context window/i;

function kindByHttpStatus(status: number): UpstreamErrorKind {
  if (status === 401) return 'authentication';
  if (status === 403) return 'permission';
  if (status === 404) return 'not_found';
  if (status === 413) return 'context_length';
  if (status === 429) return 'rate_limit';
  if (status === 503) return 'overloaded';
  if (status >= 500) return 'server';
  if (status >= 400) return 'invalid_request';
  return 'unknown';
}

function reasonOf(details: unknown): string {
  if (!Array.isArray(details)) return '';
  const info = (details as GeminiErrorDetail[]).find((detail) => typeof detail?.reason === 'string');
  return info?.reason ?? '';
}

/**
 * Google's error object (`{error: {code, message, status, details}}`) as the relay's error details: the
 * status word as type, the ErrorInfo reason (API_KEY_INVALID …) or the HTTP code as code, and the kind the
 * relay acts on. Also read from a stream event, where Gemini reports a failure after the 200.
 */
export function readGeminiErrorObject(parsed: unknown, httpStatus: number): UpstreamErrorDetails | null {
  // streamGenerateContent without alt=sse answers errors inside a JSON array.
  const body = Array.isArray(parsed) ? parsed[0] : parsed;
  const error = (body as { error?: unknown } | null)?.error;
  if (typeof error !== 'object' || error === null) return null;
  const fields = error as Record<string, unknown>;
  const message = typeof fields.message === 'string' ? fields.message : '';
  const status = typeof fields.status === 'string' ? fields.status : '';
  const code = typeof fields.code === 'number' ? fields.code : httpStatus;
  const reason = reasonOf(fields.details);
  let kind = kindByStatus[status] ?? kindByHttpStatus(code);
  if (KEY_REASONS.has(reason) || /API key not valid/i.test(message)) kind = 'authentication';
  else if (kind === 'invalid_request' && TOO_LONG.test(message)) kind = 'context_length';
  return { message, type: status, code: reason || String(code), kind };
}

/** An upstream error answer, JSON or not (an HTML page from a proxy, an empty body). */
export function readGeminiError(body: Buffer, httpStatus: number): UpstreamErrorDetails {
  const { excerpt, json } = readErrorBody(body);
  return (
    readGeminiErrorObject(json, httpStatus) ?? {
      message: excerpt || `HTTP ${httpStatus}`,
      type: '',
      code: String(httpStatus),
      kind: kindByHttpStatus(httpStatus),
    }
  );
}
