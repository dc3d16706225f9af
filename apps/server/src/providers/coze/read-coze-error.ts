import { kindFromStatus, type UpstreamErrorDetails } from '../../canonical/translation';
import { mapCozeErrorCode } from './map-coze-error-code';

/**
 * A Coze error answer with a non-2xx status: Coze's `{code, msg}` body when it sent one (its code decides
 * the kind, the status when the code is unknown), else the first 500 characters and the status's kind.
 */
export function readCozeError(body: Buffer, status: number): UpstreamErrorDetails {
  const text = body.toString('utf8').trim();
  try {
    const parsed = JSON.parse(text) as { code?: unknown; msg?: unknown };
    if (typeof parsed.code === 'number' && typeof parsed.msg === 'string') {
      const kind = mapCozeErrorCode(parsed.code, parsed.msg);
      return {
        message: parsed.msg,
        type: 'coze_error',
        code: String(parsed.code),
        kind: kind === 'unknown' ? kindFromStatus(status) : kind,
      };
    }
  } catch {
    // not Coze's JSON
  }
  const message = text.slice(0, 500) || `Coze answered HTTP ${status}`;
  return { message, type: '', code: '', kind: kindFromStatus(status) };
}
