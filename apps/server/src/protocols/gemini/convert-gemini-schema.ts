import type { JsonSchema } from '../../canonical/chat';
import { isJsonObject } from './gemini-request-fields';

/** int64 fields, which Google's JSON writes as strings ("5") as protobuf's JSON mapping allows. */
const COUNT_FIELDS = new Set([
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
]);
/** Gemini-only keywords with no JSON Schema meaning. */
const DROPPED_FIELDS = new Set(['nullable', 'propertyOrdering', 'example']);

/**
 * Gemini's OpenAPI-subset Schema (https://ai.google.dev/api/caching#Schema), which function declarations'
 * `parameters` and generationConfig's `responseSchema` use, as the JSON Schema the canonical types carry:
 * type names in lower case (`OBJECT` → `object`), `nullable: true` as a `null` type, `example` as
 * `examples`, and int64 counts as numbers. Everything else is already JSON Schema.
 */
export function convertGeminiSchema(schema: unknown): JsonSchema {
  if (!isJsonObject(schema)) return {};
  const converted: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED_FIELDS.has(key)) continue;
    if (key === 'type' && typeof value === 'string') converted.type = value.toLowerCase();
    else if (key === 'properties' && isJsonObject(value))
      converted.properties = Object.fromEntries(
        Object.entries(value).map(([name, property]) => [name, convertGeminiSchema(property)]),
      );
    else if (key === 'items') converted.items = convertGeminiSchema(value);
    else if (key === 'anyOf' && Array.isArray(value)) converted.anyOf = value.map(convertGeminiSchema);
    else if (COUNT_FIELDS.has(key) && typeof value === 'string' && /^\d+$/.test(value))
      converted[key] = Number(value);
    else converted[key] = value;
  }
  if (schema.example !== undefined) converted.examples = [schema.example];
  if (schema.nullable === true) {
    if (typeof converted.type === 'string') converted.type = [converted.type, 'null'];
    else if (Array.isArray(converted.anyOf)) converted.anyOf = [...converted.anyOf, { type: 'null' }];
  }
  if (converted.type === 'type_unspecified') delete converted.type;
  return converted;
}
