import { UpstreamFormatError } from '../../canonical/translation';

/**
 * The JSON object of a stream event that names its kind in `type` (Anthropic's and Cohere's streams); data
 * that is not JSON, or an event without a type, throws UpstreamFormatError naming the vendor.
 */
export function parseTypedStreamEvent<T extends { type: string }>(data: string, vendor: string): T {
  let event: unknown;
  try {
    event = JSON.parse(data);
  } catch {
    throw new UpstreamFormatError(`${vendor} sent a stream event that is not JSON`);
  }
  if (typeof event !== 'object' || event === null || typeof (event as { type?: unknown }).type !== 'string') {
    throw new UpstreamFormatError(`${vendor} sent a stream event without a type`);
  }
  return event as T;
}
