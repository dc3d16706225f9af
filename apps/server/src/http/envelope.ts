import type { Envelope } from '@gatehouse/shared';

/**
 * A refused request that is the caller's business, not a fault: HTTP 200 with success:false
 * (docs/architecture.md, "Management API").
 */
export class BusinessError extends Error {}

/** A failure with a real HTTP status (401 no login, 403 role too low, 404, 429). */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export function ok<T>(data?: T, message = ''): Envelope<T> {
  return data === undefined ? { success: true, message } : { success: true, message, data };
}

export function fail(message: string): never {
  throw new BusinessError(message);
}
