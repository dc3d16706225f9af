/**
 * A refusal or failure of a /v1 call, answered as OpenAI does: `{"error": {message, type, param, code}}` with
 * a real HTTP status (https://platform.openai.com/docs/guides/error-codes). The message gets the request id
 * when it is sent; it never names a channel key or an upstream address.
 */
export class RelayError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly type: string,
    readonly code: string | null = null,
    readonly param: string | null = null,
    /** extra response headers, e.g. x-should-retry: false so SDKs do not retry a refusal */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export interface OpenAIErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

export function toOpenAIErrorBody(error: RelayError, requestId: string): OpenAIErrorBody {
  return {
    error: {
      message: `${error.message} (request id: ${requestId})`,
      type: error.type,
      param: error.param,
      code: error.code,
    },
  };
}

/** The OpenAI SDKs retry 429 and 5xx unless told not to; a refusal that will not change is not retried. */
const noRetry = { 'x-should-retry': 'false' };

export const relayErrors = {
  invalidRequest: (message: string, param: string | null = null, code: string | null = null) =>
    new RelayError(400, message, 'invalid_request_error', code, param),
  missingKey: (hint = 'as "Authorization: Bearer sk-…"') =>
    new RelayError(401, `No API key provided: send it ${hint}`, 'invalid_request_error', 'invalid_api_key'),
  invalidKey: () => new RelayError(401, 'Invalid API key', 'invalid_request_error', 'invalid_api_key'),
  keyUnusable: (message: string) => new RelayError(401, message, 'invalid_request_error', 'invalid_api_key'),
  forbidden: (message: string, code: string) => new RelayError(403, message, 'permission_error', code),
  insufficientQuota: (message: string) =>
    new RelayError(429, message, 'insufficient_quota', 'insufficient_quota', null, noRetry),
  modelNotFound: (model: string) =>
    new RelayError(
      404,
      `The model "${model}" does not exist or you do not have access to it`,
      'invalid_request_error',
      'model_not_found',
      'model',
    ),
  noChannel: (model: string, group: string) =>
    new RelayError(
      503,
      `No available channel for model "${model}" in group "${group}": no enabled channel serves it right now`,
      'server_error',
      'model_not_available',
      'model',
    ),
  notImplemented: (what: string) =>
    new RelayError(
      501,
      `${what} is not supported by this gateway`,
      'invalid_request_error',
      'not_implemented',
    ),
  notFound: (method: string, path: string) =>
    new RelayError(404, `Invalid URL (${method} ${path})`, 'invalid_request_error', 'unknown_url'),
  internal: () => new RelayError(500, 'Internal server error', 'server_error', 'internal_error'),
  databaseUnavailable: () =>
    new RelayError(
      503,
      "The gateway's database is unavailable at the moment; try again shortly",
      'server_error',
      'database_unavailable',
    ),
  settlementFailed: () =>
    new RelayError(
      503,
      'The charge for this answer could not be recorded (the database is unavailable), so it was not delivered',
      'server_error',
      'settlement_failed',
    ),
};
