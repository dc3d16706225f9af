import { UpstreamReportedError, type UpstreamErrorDetails } from '../../canonical/translation';
import { COZE } from './coze-wire-types';
import { mapCozeErrorCode } from './map-coze-error-code';

/**
 * Coze reported an error inside a 2xx answer: its `{code, msg}` body instead of a stream, an `error` event,
 * or a conversation.chat.failed event. The relay acts on it like an error answer of its kind.
 */
export class CozeReportedError extends UpstreamReportedError {
  constructor(details: UpstreamErrorDetails) {
    super(COZE, details, `${COZE} reported error ${details.code}: ${details.message}`);
  }

  static of(code: unknown, message: unknown): CozeReportedError {
    const number = typeof code === 'number' ? code : Number(code) || 0;
    const text = typeof message === 'string' && message ? message : 'unknown error';
    return new CozeReportedError({
      message: text,
      type: 'coze_error',
      code: String(number),
      kind: mapCozeErrorCode(number, text),
    });
  }
}
