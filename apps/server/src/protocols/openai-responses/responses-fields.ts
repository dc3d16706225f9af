import { relayErrors, type RelayError } from '../../relay/relay-error';

export type JsonObject = Record<string, unknown>;

export const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A 400 invalid_request_error naming the field, as OpenAI answers a malformed request. */
export function invalidField(param: string, message: string): RelayError {
  return relayErrors.invalidRequest(message, param);
}

/** The field when it is set (null counts as unset, as the API treats it). */
function present(object: JsonObject, name: string): unknown {
  const value = object[name];
  return value === null ? undefined : value;
}

export function readString(object: JsonObject, name: string, param = name): string | undefined {
  const value = present(object, name);
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidField(param, `${param} must be a string`);
  return value;
}

export function readRequiredString(object: JsonObject, name: string, param: string): string {
  const value = readString(object, name, param);
  if (value === undefined || value === '') throw invalidField(param, `${param} is required`);
  return value;
}

export function readBoolean(object: JsonObject, name: string, param = name): boolean | undefined {
  const value = present(object, name);
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw invalidField(param, `${param} must be true or false`);
  return value;
}

export function readNumber(
  object: JsonObject,
  name: string,
  range: { min: number; max: number },
  param = name,
): number | undefined {
  const value = present(object, name);
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < range.min || value > range.max) {
    throw invalidField(param, `${param} must be a number from ${range.min} to ${range.max}`);
  }
  return value;
}

export function readPositiveWholeNumber(object: JsonObject, name: string, param = name): number | undefined {
  const value = present(object, name);
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw invalidField(param, `${param} must be a whole number of at least 1`);
  }
  return value;
}

export function readObject(object: JsonObject, name: string, param = name): JsonObject | undefined {
  const value = present(object, name);
  if (value === undefined) return undefined;
  if (!isJsonObject(value)) throw invalidField(param, `${param} must be an object`);
  return value;
}

export function readArray(object: JsonObject, name: string, param = name): unknown[] | undefined {
  const value = present(object, name);
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw invalidField(param, `${param} must be an array`);
  return value;
}
