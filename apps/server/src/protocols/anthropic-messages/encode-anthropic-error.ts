import type { AnthropicErrorBody } from '../../providers/anthropic/anthropic-wire-types';
import type { RelayError } from '../../relay/relay-error';
import type { EncodedError } from '../ingress-codec';
import { writeAnthropicEvent } from './anthropic-stream-encoder';

/**
 * Anthropic's error type for each status it uses (https://docs.anthropic.com/en/api/errors). The SDKs raise
 * their typed errors from the status (401 AuthenticationError, 404 NotFoundError, 429 RateLimitError, 529
 * OverloadedError …), Claude Code reads the type.
 */
const TYPE_OF_STATUS: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  503: 'overloaded_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

/**
 * The status and type an Anthropic client gets. A model that no channel of the caller's groups serves is,
 * in Anthropic's API, a model that does not exist: 404 not_found_error, which the SDKs do not retry (a 503
 * would be retried, to no avail).
 */
function classify(error: RelayError): { status: number; type: string } {
  if (error.code === 'model_not_available' || error.code === 'model_not_found') {
    return { status: 404, type: 'not_found_error' };
  }
  const status = error.statusCode;
  const type = TYPE_OF_STATUS[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
  return { status, type };
}

function toAnthropicErrorBody(error: RelayError, type: string, requestId: string): AnthropicErrorBody {
  return { type: 'error', error: { type, message: error.message }, request_id: requestId };
}

/** `{"type":"error","error":{type, message}}` with the request id where Anthropic puts it (body and header). */
export function encodeAnthropicError(error: RelayError, requestId: string): EncodedError {
  const { status, type } = classify(error);
  return {
    status,
    headers: { ...error.headers, 'request-id': requestId },
    body: toAnthropicErrorBody(error, type, requestId),
  };
}

/** The `error` event of a stream already under way (https://docs.anthropic.com/en/docs/build-with-claude/streaming#error-events). */
export function encodeAnthropicStreamError(error: RelayError, requestId: string): string {
  return writeAnthropicEvent(toAnthropicErrorBody(error, classify(error).type, requestId));
}
