import { UpstreamFormatError } from '../../canonical/translation';

/**
 * A stream that ended without its final event: cut after it started (before `finalEvent`, named as the
 * vendor's documentation does), or empty.
 */
export function incompleteStreamError(
  vendor: string,
  isStarted: boolean,
  finalEvent: string,
): UpstreamFormatError {
  return new UpstreamFormatError(
    isStarted ? `the ${vendor} stream ended before ${finalEvent}` : `the ${vendor} stream was empty`,
  );
}
