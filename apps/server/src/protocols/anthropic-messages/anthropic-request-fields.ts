import { RelayError } from '../../relay/relay-error';

/**
 * Field checks that answer as Anthropic does for a malformed Messages request: 400 invalid_request_error with
 * the field's dotted path first (`messages.0.content.1.source.data: Field required`), the wording of
 * Anthropic's validation errors (https://docs.anthropic.com/en/api/errors). The path is also the error's
 * `param`.
 */

export type Json = Record<string, unknown>;

export const isJsonObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function invalidField(path: string, problem: string): RelayError {
  return new RelayError(400, `${path}: ${problem}`, 'invalid_request_error', 'invalid_request_error', path);
}

export const fieldRequired = (path: string) => invalidField(path, 'Field required');

export function requireString(value: unknown, path: string): string {
  if (typeof value === 'string') return value;
  throw value === undefined ? fieldRequired(path) : invalidField(path, 'Input should be a valid string');
}

export function requireObject(value: unknown, path: string): Json {
  if (isJsonObject(value)) return value;
  throw value === undefined ? fieldRequired(path) : invalidField(path, 'Input should be a valid dictionary');
}

export function requireArray(value: unknown, path: string): unknown[] {
  if (Array.isArray(value)) return value;
  throw value === undefined ? fieldRequired(path) : invalidField(path, 'Input should be a valid list');
}

/** A whole number in [min, max]; absent (or null) answers undefined. */
export function readOptionalInteger(
  value: unknown,
  path: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw invalidField(path, 'Input should be a valid integer');
  }
  if (value < min) throw invalidField(path, `Input should be greater than or equal to ${min}`);
  if (value > max) throw invalidField(path, `Input should be less than or equal to ${max}`);
  return value;
}

export function readOptionalNumber(
  value: unknown,
  path: string,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw invalidField(path, 'Input should be a valid number');
  }
  if (value < min) throw invalidField(path, `Input should be greater than or equal to ${min}`);
  if (value > max) throw invalidField(path, `Input should be less than or equal to ${max}`);
  return value;
}

export function readOptionalBoolean(value: unknown, path: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw invalidField(path, 'Input should be a valid boolean');
  return value;
}

export function readOptionalString(value: unknown, path: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidField(path, 'Input should be a valid string');
  return value;
}

/** A tag that is not one of the expected ones, in Anthropic's words. */
export function unexpectedTag(path: string, tag: unknown, expected: readonly string[]): RelayError {
  const list = expected.map((name) => `'${name}'`).join(', ');
  return invalidField(path, `Input tag '${String(tag)}' does not match any of the expected tags: ${list}`);
}
