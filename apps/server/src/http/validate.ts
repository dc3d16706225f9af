import type { z } from 'zod';
import { BusinessError } from './envelope';

/** Parses input with a zod schema; the first problem becomes the business error the console shows. */
export function parseWith<Schema extends z.ZodType>(schema: Schema, input: unknown): z.infer<Schema> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  const message = issue?.message ?? 'Invalid request';
  // Messages written for the user (from SPEC) already name the field; zod's generic ones get the path.
  throw new BusinessError(
    issue?.code === 'custom' || /[A-Z!]/.test(message[0] ?? '') ? message : field + message,
  );
}

/** A positive integer id from a path or body value, else a business error. */
export function parseId(value: unknown, name = 'id'): number {
  const id = typeof value === 'number' ? value : Number(String(value ?? '').trim());
  if (!Number.isInteger(id) || id <= 0) throw new BusinessError(`Invalid ${name}`);
  return id;
}
