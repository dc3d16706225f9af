import type { UpstreamErrorKind } from '../../canonical/translation';

/**
 * Spark's error codes (https://www.xfyun.cn/doc/spark/Web.html, section 错误码) as the kinds the relay acts on.
 * 11200 is a missing licence for the function or version (the credentials cannot be used for it); 11201 the
 * day's quota, 11202 and 11203 the per-second and concurrency limits of the licence; 10013, 10014 and 10019
 * iFlytek's content review of the input or the output; 10907 a conversation longer than the model takes.
 */
const KIND_OF_CODE: Readonly<Record<number, UpstreamErrorKind>> = {
  10003: 'invalid_request',
  10004: 'invalid_request',
  10005: 'invalid_request',
  10006: 'rate_limit',
  10007: 'rate_limit',
  10008: 'overloaded',
  10009: 'server',
  10010: 'server',
  10011: 'server',
  10012: 'server',
  10013: 'invalid_request',
  10014: 'invalid_request',
  10015: 'permission',
  10016: 'permission',
  10019: 'invalid_request',
  10110: 'overloaded',
  10163: 'invalid_request',
  10222: 'server',
  10907: 'context_length',
  11200: 'authentication',
  11201: 'rate_limit',
  11202: 'rate_limit',
  11203: 'rate_limit',
};

/** Codes of iFlytek's content review: the input (10013, 10019) or the output (10014) was refused. */
export const SPARK_CONTENT_REVIEW_CODES: ReadonlySet<number> = new Set([10013, 10014, 10019]);

export function mapSparkErrorCode(code: number): UpstreamErrorKind {
  return KIND_OF_CODE[code] ?? (code >= 10000 && code < 11000 ? 'server' : 'unknown');
}

/**
 * The HTTP status an error frame stands for, when it arrives before any answer: the transport answers the
 * relay with it, so a refused licence counts as a refused key (401) and a limit as a 429.
 */
export function statusOfSparkErrorCode(code: number): number {
  switch (mapSparkErrorCode(code)) {
    case 'authentication':
      return 401;
    case 'permission':
      return 403;
    case 'rate_limit':
      return 429;
    case 'overloaded':
      return 503;
    case 'invalid_request':
    case 'context_length':
      return 400;
    default:
      return 502;
  }
}
