import { z } from 'zod';

/** Every table's id is a 32-bit integer on PostgreSQL (`serial`) and MySQL (`int`): no row has a larger one. */
export const MAX_ROW_ID = 2_147_483_647;

/**
 * The id of the row a request body edits: a whole number from 1 to MAX_ROW_ID, as a number or as digits. A larger
 * one is refused here, since PostgreSQL and MySQL would fail the query instead of finding nothing.
 */
export const rowIdSchema = z.preprocess(
  (value) => (typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
  z.number({ error: 'Invalid id' }).int('Invalid id').min(1, 'Invalid id').max(MAX_ROW_ID, 'Invalid id'),
);
