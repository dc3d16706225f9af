import { MAX_ROW_ID } from '@gatehouse/shared';
import { z } from 'zod';
import { BusinessError } from './envelope';

/** The object a schema parses, looking through `.transform()` / `.pipe()` wrappers. */
function findObjectSchema(schema: z.ZodType): z.ZodObject | undefined {
  if (schema instanceof z.ZodObject) return schema;
  if (schema instanceof z.ZodPipe) return findObjectSchema(schema.in as z.ZodType);
  return undefined;
}

/**
 * One rule for every route: a field sent as `null` that its schema accepts absent but not as null counts as
 * absent. one-api's console and scripts send `null` for fields they leave empty (`aff_code` without an invite).
 */
export function dropNullOptionals(schema: z.ZodType, input: unknown): unknown {
  const objectSchema = findObjectSchema(schema);
  if (!objectSchema || input === null || typeof input !== 'object' || Array.isArray(input)) return input;
  const shape = objectSchema.shape as Record<string, z.ZodType>;
  const entries = Object.entries(input).filter(([name, value]) => {
    const field = shape[name];
    if (value !== null || !field) return true;
    return field.safeParse(null).success || !field.safeParse(undefined).success;
  });
  return Object.fromEntries(entries);
}

/** Parses input with a zod schema; the first problem becomes the business error the console shows. */
export function parseWith<Schema extends z.ZodType>(schema: Schema, input: unknown): z.infer<Schema> {
  const result = schema.safeParse(dropNullOptionals(schema, input ?? {}));
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  const message = issue?.message ?? 'Invalid request';
  // Messages written for the user (the shared schemas' own wording) already name the field; zod's generic ones get the path.
  throw new BusinessError(
    issue?.code === 'custom' || /[A-Z!]/.test(message[0] ?? '') ? message : field + message,
  );
}

/**
 * A positive integer id from a path or body value, else a business error. Text must be plain digits, and an id
 * above the largest one a row can have is refused here: PostgreSQL and MySQL would fail the query instead.
 */
export function parseId(value: unknown, name = 'id'): number {
  const text = typeof value === 'string' ? value.trim() : null;
  const id = typeof value === 'number' ? value : text !== null && /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(id) || id <= 0 || id > MAX_ROW_ID) throw new BusinessError(`Invalid ${name}`);
  return id;
}
