import type { JsonSchema } from '../../canonical/chat';
import type { GeminiJsonSchema } from './gemini-wire-types';

/**
 * The JSON Schema keywords Gemini documents for `parametersJsonSchema` and `responseJsonSchema`
 * (https://ai.google.dev/api/generate-content#FIELDS.response_json_schema). Anything else — $schema, default,
 * examples, pattern, minLength, multipleOf, uniqueItems, not, if/then, patternProperties … — is removed rather
 * than risk a 400 for the whole request over a keyword the model would not enforce anyway.
 */
const SUPPORTED = new Set([
  '$id',
  '$defs',
  '$ref',
  '$anchor',
  'type',
  'format',
  'title',
  'description',
  'enum',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'anyOf',
  'oneOf',
  'properties',
  'additionalProperties',
  'required',
  'propertyOrdering',
]);

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function mapValues(value: unknown, clean: (schema: unknown) => unknown): Schema | undefined {
  if (!isSchema(value)) return undefined;
  return Object.fromEntries(Object.entries(value).map(([key, schema]) => [key, clean(schema)]));
}

/** allOf has no Gemini keyword: one entry is inlined, several objects are merged (properties and required). */
function inlineAllOf(schema: Schema): Schema {
  const { allOf, ...rest } = schema;
  if (!Array.isArray(allOf)) return schema;
  const merged: Schema = {};
  for (const entry of allOf.filter(isSchema)) {
    for (const [key, value] of Object.entries(entry)) {
      if (key === 'properties' && isSchema(value)) {
        merged.properties = { ...(merged.properties as Schema | undefined), ...value };
      } else if (key === 'required' && Array.isArray(value)) {
        merged.required = [...((merged.required as unknown[] | undefined) ?? []), ...value];
      } else if (!(key in merged)) merged[key] = value;
    }
  }
  return { ...merged, ...rest };
}

function cleanNode(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(cleanNode);
  if (!isSchema(node)) return node;
  let schema = inlineAllOf(node);
  if ('definitions' in schema && !('$defs' in schema)) {
    const { definitions, ...rest } = schema;
    schema = { ...rest, $defs: definitions };
  }
  if (typeof schema.$ref === 'string') {
    // "If $ref is set on a sub-schema, no other properties, except for those starting as a $, may be set."
    const kept: Schema = { $ref: schema.$ref.replace(/^#\/definitions\//, '#/$defs/') };
    for (const key of ['$id', '$anchor'] as const) if (key in schema) kept[key] = schema[key];
    if ('$defs' in schema) kept.$defs = mapValues(schema.$defs, cleanNode) ?? {};
    return kept;
  }
  if ('const' in schema && !('enum' in schema)) schema = { ...schema, enum: [schema.const] };
  // Draft 6 numeric exclusive bounds become the nearest inclusive bound Gemini knows.
  if (typeof schema.exclusiveMinimum === 'number' && !('minimum' in schema))
    schema = { ...schema, minimum: schema.exclusiveMinimum };
  if (typeof schema.exclusiveMaximum === 'number' && !('maximum' in schema))
    schema = { ...schema, maximum: schema.exclusiveMaximum };
  // Draft 4 tuples (items as an array) are prefixItems in 2020-12.
  if (Array.isArray(schema.items) && !('prefixItems' in schema)) {
    const { items, ...rest } = schema;
    schema = { ...rest, prefixItems: items };
  }

  const cleaned: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!SUPPORTED.has(key)) continue;
    if (key === 'properties' || key === '$defs') cleaned[key] = mapValues(value, cleanNode) ?? {};
    else if (key === 'items' || key === 'additionalProperties') cleaned[key] = cleanNode(value);
    else if (key === 'anyOf' || key === 'oneOf' || key === 'prefixItems')
      cleaned[key] = Array.isArray(value) ? value.map(cleanNode) : value;
    else cleaned[key] = value;
  }
  return cleaned;
}

/** A client's JSON Schema reduced to what Gemini accepts (tool parameters and structured output). */
export function cleanGeminiJsonSchema(schema: JsonSchema): GeminiJsonSchema {
  return cleanNode(schema) as GeminiJsonSchema;
}

/** A tool without parameters leaves parametersJsonSchema out: an empty object schema says nothing more. */
export function hasNoParameters(schema: JsonSchema | undefined): boolean {
  if (!schema) return true;
  const properties = schema.properties;
  return (
    (schema.type === undefined || schema.type === 'object') &&
    (!isSchema(properties) || Object.keys(properties).length === 0) &&
    schema.anyOf === undefined &&
    schema.oneOf === undefined &&
    schema.$ref === undefined &&
    schema.allOf === undefined
  );
}
