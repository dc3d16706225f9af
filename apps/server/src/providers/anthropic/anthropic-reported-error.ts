import { UpstreamReportedError, type UpstreamErrorDetails } from '../../canonical/translation';

/**
 * Anthropic reported an error where an answer was expected: an `error` event in the middle of a stream
 * (an overloaded_error after a 200, https://docs.anthropic.com/en/docs/build-with-claude/streaming#error-events)
 * or an error object in a 2xx body. It is an UpstreamFormatError, so a relay that knows nothing more answers
 * 502; `details` has the vendor's words and the error kind for one that does.
 */
export class AnthropicReportedError extends UpstreamReportedError {
  constructor(details: UpstreamErrorDetails) {
    super('Anthropic', details);
  }
}
