import { z } from 'zod';
import { channelSortColumns } from './channel-schemas';
import { MAX_ROW_ID } from './row-id';
import { MAX_EPOCH_SECONDS, TOKEN_ORDERS } from './token-schemas';

/**
 * The query strings of the management API's lists and searches, one schema per query. Values arrive as text and
 * a blank value means "not given". A whole number is plain digits: `1.5`, `1e3`, `0x10` and `-1` are refused
 * with a message naming the parameter rather than guessed at. (A parameter given twice never reaches these
 * schemas: the server refuses it before any route runs.)
 */

/**
 * Page numbers and sizes above this are read as this. A page that far out is past the end of any list, so it
 * answers an empty list, and the offset it makes stays a number every database takes.
 */
export const PAGING_CLAMP = 1_000_000;

interface WholeNumberRule {
  maximum: number;
  /** 'clamp' reads a larger number as the maximum; 'refuse' answers "<name> must be at most <maximum>" */
  aboveMaximum: 'clamp' | 'refuse';
}

/** An optional whole number ≥ 0 from a query string, named in its messages. */
export function queryWholeNumber(name: string, rule: WholeNumberRule) {
  const wholeNumber = z.unknown().transform((value, context): number | undefined => {
    const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : null;
    if (text === '' || value === null) return undefined;
    const refuse = (message: string) => {
      context.addIssue({ code: 'custom', message });
      return z.NEVER;
    };
    if (text !== null && /^-\d+$/.test(text)) return refuse(`${name} must not be negative`);
    if (text === null || !/^\d+$/.test(text)) return refuse(`${name} must be a whole number`);
    const number = Number(text);
    if (number <= rule.maximum) return number;
    return rule.aboveMaximum === 'clamp' ? rule.maximum : refuse(`${name} must be at most ${rule.maximum}`);
  });
  // Optional outside the transform: an absent key then reads as undefined instead of "required".
  return wholeNumber.optional();
}

/** A page number (`p`, from 0) or size: huge values are clamped, so they simply answer an empty page. */
export const queryPagingNumber = (name: string) =>
  queryWholeNumber(name, { maximum: PAGING_CLAMP, aboveMaximum: 'clamp' });

/** An id filter: refused above the largest id a row can have. */
export const queryRowId = (name: string) =>
  queryWholeNumber(name, { maximum: MAX_ROW_ID, aboveMaximum: 'refuse' });

/** Seconds since the epoch; refused after the year 9999 (usually milliseconds sent by mistake). */
export const queryTimestamp = (name: string) =>
  queryWholeNumber(name, { maximum: MAX_EPOCH_SECONDS, aboveMaximum: 'refuse' });

/** Free text, trimmed; absent reads as ''. */
export const queryText = z
  .string({ error: 'query parameters must be text' })
  .optional()
  .transform((value) => (value ?? '').trim());

/** `p` and `size`: every paged list. */
export const pageQuerySchema = z.object({
  p: queryPagingNumber('p'),
  size: queryPagingNumber('size'),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

/** GET /api/user/: the order is checked by the route, which names the allowed columns. */
export const userListQuerySchema = pageQuerySchema.extend({ order: queryText });

/** GET /api/user/search: up to 100 matches at once, no paging. */
export const userSearchQuerySchema = z.object({ keyword: queryText });

/** GET /api/token/: an order it does not know means newest first. */
export const tokenListQuerySchema = pageQuerySchema.extend({
  order: queryText.transform((order) =>
    (TOKEN_ORDERS as readonly string[]).includes(order) ? (order as (typeof TOKEN_ORDERS)[number]) : '',
  ),
});

/** GET /api/token/search and /api/redemption/search. */
export const keywordPageQuerySchema = pageQuerySchema.extend({ keyword: queryText });

/** GET /api/channel/ and /api/channel/search: a column it does not know sorts by id; newest first by default. */
export const channelListQuerySchema = keywordPageQuerySchema.extend({
  order: queryText.transform((order) => channelSortColumns.find((column) => column === order) ?? 'id'),
  direction: queryText.transform((direction): 'asc' | 'desc' => (direction === 'asc' ? 'asc' : 'desc')),
});
export type ChannelListQuery = z.infer<typeof channelListQuerySchema>;

/** PUT /api/token/ and /api/redemption/: `status_only` given and not "false" changes only the status. */
export const statusOnlyQuerySchema = z.object({
  status_only: z
    .string()
    .optional()
    .transform((value) => value !== undefined && value !== 'false'),
});
