import {
  kindFromStatus,
  type UpstreamErrorDetails,
  type UpstreamErrorKind,
} from '../../canonical/translation';
import { readOpenAIError } from '../openai-compatible/read-openai-response';
import type { BaiduErrorBody } from './baidu-wire-types';

/**
 * Qianfan's error codes (https://cloud.baidu.com/doc/WENXINWORKSHOP/s/tlmyncueh) as the kinds the relay acts
 * on. 110 and 111 are an access token Baidu no longer takes (revoked, or past its 30 days): the cached token
 * must be dropped and a new one fetched. Codes not listed are read by their range: 336xxx are about the
 * request, the small platform codes about the service.
 */
const KIND_OF_CODE: Readonly<Record<number, UpstreamErrorKind>> = {
  1: 'server', // Unknown error
  2: 'overloaded', // Service temporarily unavailable
  3: 'not_found', // Unsupported openapi method
  4: 'rate_limit', // Open api request limit reached (the cluster's)
  6: 'permission', // No permission to access data
  13: 'authentication', // Get service token failed
  14: 'authentication', // IAM Certification failed
  15: 'permission', // app not exsits or create failed
  17: 'rate_limit', // Open api daily request limit reached
  18: 'rate_limit', // Open api qps request limit reached
  19: 'insufficient_quota', // Open api total request limit reached
  100: 'authentication', // Invalid parameter: no valid access_token
  110: 'authentication', // Access token invalid or no longer valid
  111: 'authentication', // Access token expired
  336000: 'server', // Internal error
  336001: 'invalid_request', // Invalid Argument (the body)
  336002: 'invalid_request', // Invalid JSON
  336003: 'invalid_request', // Invalid Argument (a parameter's check)
  336004: 'permission', // User not authorized to the model (not opened, or out of free quota)
  336005: 'not_found', // API name not exist (a custom model's endpoint)
  336006: 'invalid_request', // messages count or roles do not alternate
  336007: 'context_length', // exceeds max length of message content
  336100: 'overloaded', // try again later
  336101: 'invalid_request', // invalid function name
  336102: 'invalid_request', // invalid function description
  336103: 'context_length', // prompt tokens too long
  336104: 'invalid_request', // invalid function parameters
  336105: 'invalid_request', // invalid function responses
  336106: 'invalid_request', // invalid function examples
  336501: 'rate_limit', // Rate limit reached for RPM
  336502: 'rate_limit', // Rate limit reached for TPM
  336503: 'rate_limit', // Rate limit reached (the model's)
  336504: 'rate_limit', // Rate limit reached for concurrency
};

function kindOfCode(code: number, status: number): UpstreamErrorKind {
  const known = KIND_OF_CODE[code];
  if (known) return known;
  if (code >= 336000 && code < 337000) return 'invalid_request';
  return status >= 400 ? kindFromStatus(status) : 'unknown';
}

/** `{error_code, error_msg}` as the relay's details, or null when the value is not one. */
export function readBaiduErrorObject(value: unknown, status = 200): UpstreamErrorDetails | null {
  if (typeof value !== 'object' || value === null) return null;
  const { error_code: code, error_msg: message } = value as Partial<BaiduErrorBody>;
  if (typeof code !== 'number') return null;
  return {
    message: typeof message === 'string' && message !== '' ? message : `Baidu error ${code}`,
    type: 'baidu_error',
    code: String(code),
    kind: kindOfCode(code, status),
  };
}

/**
 * An error answer of either Qianfan API: v1's `{error_code, error_msg}` (usually with HTTP 200, read by the
 * translator, but a gateway in front may answer it with another status), or v2's OpenAI-shaped error.
 */
export function readBaiduError(body: Buffer, status: number): UpstreamErrorDetails {
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    // not JSON: a proxy's page; read below by its status
  }
  return readBaiduErrorObject(parsed, status) ?? readOpenAIError(body, status);
}
