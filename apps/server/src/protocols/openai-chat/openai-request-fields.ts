import { relayErrors, type RelayError } from '../../relay/relay-error';

/**
 * Field checks that answer as OpenAI does for a malformed request: 400 invalid_request_error, the field's
 * path as `param`, and OpenAI's wording (https://platform.openai.com/docs/guides/error-codes), so a client
 * sees the same message from the gateway as from OpenAI.
 */

export type Json = Record<string, unknown>;

export const isJsonObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a decimal';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

export function invalidType(param: string, expected: string, value: unknown): RelayError {
  return relayErrors.invalidRequest(
    `Invalid type for '${param}': expected ${expected}, but got ${describeType(value)} instead.`,
    param,
    'invalid_type',
  );
}

export function missingParameter(param: string): RelayError {
  return relayErrors.invalidRequest(
    `Missing required parameter: '${param}'.`,
    param,
    'missing_required_parameter',
  );
}

export function invalidValue(param: string, value: unknown, allowed: readonly string[]): RelayError {
  const list = allowed.map((name) => `'${name}'`).join(', ');
  return relayErrors.invalidRequest(
    `Invalid value for '${param}': '${String(value)}'. Supported values are: ${list}.`,
    param,
    'invalid_value',
  );
}

export function requireString(value: unknown, param: string): string {
  if (value === undefined) throw missingParameter(param);
  if (typeof value !== 'string') throw invalidType(param, 'a string', value);
  return value;
}

/** Optional fields: absent and null are both "not set", as OpenAI's API treats them. */
export function checkOptionalString(value: unknown, param: string): void {
  if (value !== undefined && value !== null && typeof value !== 'string') {
    throw invalidType(param, 'a string', value);
  }
}

export function checkOptionalBoolean(value: unknown, param: string): void {
  if (value !== undefined && value !== null && typeof value !== 'boolean') {
    throw invalidType(param, 'a boolean', value);
  }
}

export function checkOptionalObject(value: unknown, param: string): void {
  if (value !== undefined && value !== null && !isJsonObject(value)) {
    throw invalidType(param, 'an object', value);
  }
}

export function checkOptionalInteger(value: unknown, param: string, minimum: number, maximum?: number): void {
  if (value === undefined || value === null) return;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw invalidType(param, 'an integer', value);
  if (value < minimum) {
    throw relayErrors.invalidRequest(
      `Invalid '${param}': integer below minimum value. Expected a value >= ${minimum}, but got ${value} instead.`,
      param,
      'integer_below_min_value',
    );
  }
  if (maximum !== undefined && value > maximum) {
    throw relayErrors.invalidRequest(
      `Invalid '${param}': integer above maximum value. Expected a value <= ${maximum}, but got ${value} instead.`,
      param,
      'integer_above_max_value',
    );
  }
}

export function checkOptionalNumber(value: unknown, param: string, minimum: number, maximum: number): void {
  if (value === undefined || value === null) return;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalidType(param, 'a number', value);
  if (value < minimum || value > maximum) {
    const side = value < minimum ? 'below minimum' : 'above maximum';
    const bound = value < minimum ? `>= ${minimum}` : `<= ${maximum}`;
    throw relayErrors.invalidRequest(
      `Invalid '${param}': decimal ${side} value. Expected a value ${bound}, but got ${value} instead.`,
      param,
      value < minimum ? 'decimal_below_min_value' : 'decimal_above_max_value',
    );
  }
}

export function emptyArray(param: string): RelayError {
  return relayErrors.invalidRequest(
    `Invalid '${param}': empty array. Expected an array with minimum length 1, but got an empty array instead.`,
    param,
    'empty_array',
  );
}
