import { relayErrors, type RelayError } from '../../relay/relay-error';

/**
 * Field checks that answer as the Gemini API does for a malformed request: 400 INVALID_ARGUMENT whose message
 * names the field by its path in the body (`contents[0].parts[1].inlineData.data`), in Google's words
 * (https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes). Fields Google does not define are never
 * an error here: they travel on the pass-through lane and translators drop them.
 */

export type Json = Record<string, unknown>;

export const isJsonObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return JSON.stringify(value) ?? String(value);
}

export function invalidField(path: string, value: unknown, expected: string): RelayError {
  return relayErrors.invalidRequest(
    `Invalid value at '${path}' (${describe(value)}): expected ${expected}`,
    path,
    'invalid_argument',
  );
}

/** Google's words for a required field that is absent: `* GenerateContentRequest.contents: contents is not specified`. */
export function missingField(message: string, path: string): RelayError {
  const field =
    path
      .split('.')
      .at(-1)
      ?.replace(/\[\d+\]$/, '') ?? path;
  return relayErrors.invalidRequest(
    `* ${message}.${path}: ${field} is not specified`,
    path,
    'invalid_argument',
  );
}

export function readObject(value: unknown, path: string): Json {
  if (!isJsonObject(value)) throw invalidField(path, value, 'an object');
  return value;
}

export function readOptionalObject(value: unknown, path: string): Json | undefined {
  return value === undefined || value === null ? undefined : readObject(value, path);
}

export function readList(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw invalidField(path, value, 'a list');
  return value;
}

export function readOptionalList(value: unknown, path: string): unknown[] | undefined {
  return value === undefined || value === null ? undefined : readList(value, path);
}

export function readString(value: unknown, path: string): string {
  if (typeof value !== 'string') throw invalidField(path, value, 'a string');
  return value;
}

export function readOptionalString(value: unknown, path: string): string | undefined {
  return value === undefined || value === null ? undefined : readString(value, path);
}

export function readOptionalBoolean(value: unknown, path: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw invalidField(path, value, 'true or false');
  return value;
}

export function readOptionalNumber(
  value: unknown,
  path: string,
  range: { minimum?: number; maximum?: number; isInteger?: boolean } = {},
): number | undefined {
  if (value === undefined || value === null) return undefined;
  const { minimum, maximum, isInteger = false } = range;
  const kind = isInteger ? 'an integer' : 'a number';
  if (typeof value !== 'number' || !Number.isFinite(value) || (isInteger && !Number.isInteger(value)))
    throw invalidField(path, value, kind);
  if (minimum !== undefined && value < minimum)
    throw invalidField(path, value, `${kind} of at least ${minimum}`);
  if (maximum !== undefined && value > maximum)
    throw invalidField(path, value, `${kind} of at most ${maximum}`);
  return value;
}
