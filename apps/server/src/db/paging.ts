import type { PageQuery } from '@gatehouse/shared';
import { sql, type RawBuilder } from 'kysely';

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

export interface Page {
  limit: number;
  offset: number;
}

/**
 * `p` counts pages from 0 and `size` is capped at `maxSize`; absent or 0 means the default size. Both come
 * from a query schema of `@gatehouse/shared` (`pageQuerySchema`), which refuses malformed values and clamps huge
 * ones, so the offset stays a number every database takes.
 */
export function readPage(query: PageQuery, maxSize = MAX_PAGE_SIZE): Page {
  const limit = Math.min(query.size || DEFAULT_PAGE_SIZE, maxSize);
  return { limit, offset: (query.p ?? 0) * limit };
}

/**
 * `column LIKE %keyword%` with the wildcards of the keyword escaped, so a search for `50%` matches the text.
 * The escape character is `!` because a backslash means different things in MySQL and SQLite string literals.
 */
export function containsText(column: string, keyword: string): RawBuilder<boolean> {
  const pattern = `%${keyword.replace(/[!%_]/g, (character) => `!${character}`)}%`;
  return sql<boolean>`${sql.ref(column)} like ${pattern} escape '!'`;
}
