import { UpstreamReportedError, type UpstreamErrorDetails } from '../../canonical/translation';
import { COHERE } from './cohere-wire-types';

/**
 * Cohere ended an answer with finish_reason ERROR or TIMEOUT (https://docs.cohere.com/reference/chat): a
 * failure reported inside a 2xx answer, which the relay treats like an error answer of its kind.
 */
export class CohereReportedError extends UpstreamReportedError {
  constructor(details: UpstreamErrorDetails) {
    super(COHERE, details);
  }
}
