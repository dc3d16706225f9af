import { kindFromStatus, type UpstreamErrorDetails } from '../../canonical/translation';
import { readOpenAIError } from '../openai-compatible/read-openai-response';
import { mapSparkErrorCode } from './map-spark-error-code';

/**
 * A failed Spark call, whichever way it failed:
 * - an error frame the transport answered before any text (`{"header": {"code": 11200, …}}`): Spark's code
 *   decides the kind;
 * - a refused WebSocket handshake (`{"message": "HMAC signature cannot be verified"}`, 401 or 403): a wrong
 *   APIKey or APISecret, or a clock more than 300 s off iFlytek's;
 * - an error of the HTTP API (APIPassword keys), in OpenAI's shape.
 */
export function readSparkError(body: Buffer, status: number): UpstreamErrorDetails {
  const text = body.toString('utf8').trim();
  const parse = (candidate: string): unknown => {
    try {
      return JSON.parse(candidate);
    } catch {
      return null;
    }
  };
  // The transport's error frame is one line; a handshake refusal's body is whatever JSON iFlytek sent.
  const parsed = parse(text) ?? parse(text.split('\n', 1)[0] ?? '');
  const fields = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as {
    header?: { code?: unknown; message?: unknown; sid?: unknown };
  };
  const { header } = fields;
  if (header && typeof header.code === 'number') {
    const sid = typeof header.sid === 'string' && header.sid ? ` (sid ${header.sid})` : '';
    return {
      message: `${typeof header.message === 'string' ? header.message : 'error'}${sid}`,
      type: 'spark_error',
      code: String(header.code),
      kind: mapSparkErrorCode(header.code),
    };
  }
  const details = readOpenAIError(body, status);
  // The HTTP API words its errors as OpenAI does, with Spark's own code (e.g. "10013") as the code.
  if (/^1\d{4}$/.test(details.code)) {
    const kind = mapSparkErrorCode(Number(details.code));
    return { ...details, kind: kind === 'unknown' ? kindFromStatus(status) : kind };
  }
  return details;
}
