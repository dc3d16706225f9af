import { relayErrors } from './relay-error';

/**
 * A list request's `limit` query parameter (the page size of the cursor lists that vendors' APIs share): the
 * default when absent, else a whole number from 1 to `max`; anything else is the client's error.
 */
export function readPageLimit(limit: string | undefined, bounds: { default: number; max: number }): number {
  if (limit === undefined) return bounds.default;
  const value = Number(limit);
  if (!Number.isInteger(value) || value < 1 || value > bounds.max) {
    throw relayErrors.invalidRequest(`limit must be a whole number from 1 to ${bounds.max}`, 'limit');
  }
  return value;
}
