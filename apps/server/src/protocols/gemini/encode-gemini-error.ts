import type { GeminiErrorBody, GeminiErrorDetail } from '../../providers/gemini/gemini-wire-types';
import type { RelayError } from '../../relay/relay-error';

/** HTTP statuses as the google.rpc.Code names Google's APIs answer with them (https://google.aip.dev/193). */
const STATUS_WORDS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  413: 'INVALID_ARGUMENT',
  415: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export function geminiStatusWord(status: number): string {
  return STATUS_WORDS[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION');
}

/**
 * The HTTP status a Gemini client gets. A model that no channel of the caller's groups serves is, in Google's
 * API, a model that does not exist: 404 NOT_FOUND, which clients do not retry (a 503 would be retried, to no
 * avail).
 */
export function geminiStatusOf(error: RelayError): number {
  return error.code === 'model_not_available' || error.code === 'model_not_found' ? 404 : error.statusCode;
}

/**
 * The error's code as an ErrorInfo detail, where Google puts the machine-readable reason. A refused key is
 * API_KEY_INVALID of googleapis.com, the reason Gemini tools look for; the gateway's own reasons are its codes
 * in Google's upper case.
 */
function errorInfo(error: RelayError): GeminiErrorDetail[] | undefined {
  if (!error.code) return undefined;
  const isKeyRefused = error.code === 'invalid_api_key';
  return [
    {
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: isKeyRefused ? 'API_KEY_INVALID' : error.code.toUpperCase(),
      domain: isKeyRefused ? 'googleapis.com' : 'gatehouse',
      ...(error.param ? { metadata: { field: error.param } } : {}),
    },
  ];
}

/**
 * Google's error object (https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes) with the real
 * HTTP status, so @google/genai raises an ApiError with it. A key the gateway refuses is 401 UNAUTHENTICATED,
 * not the 400 INVALID_ARGUMENT Google answers for a bad key: 400 reads as "your request is wrong" in every
 * client, while the ErrorInfo reason still says API_KEY_INVALID for tools that look for it.
 */
export function toGeminiErrorBody(error: RelayError, requestId: string): GeminiErrorBody {
  const details = errorInfo(error);
  const status = geminiStatusOf(error);
  return {
    error: {
      code: status,
      message: `${error.message} (request id: ${requestId})`,
      status: geminiStatusWord(status),
      ...(details ? { details } : {}),
    },
  };
}
