import { sql, type RawBuilder } from 'kysely';

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

export interface Page {
  limit: number;
  offset: number;
}

/** `p` starts at 0 (DESIGN.md); a bad value falls back to the first page rather than failing a list. */
export function readPage(query: { p?: unknown; size?: unknown }, maxSize = MAX_PAGE_SIZE): Page {
  const page = Math.max(0, Math.floor(Number(query.p) || 0));
  const requested = Math.floor(Number(query.size) || DEFAULT_PAGE_SIZE);
  const limit = Math.min(Math.max(1, requested), maxSize);
  return { limit, offset: page * limit };
}

/**
 * `column LIKE %keyword%` with the wildcards of the keyword escaped, so a search for `50%` matches the text.
 * The escape character is `!` because a backslash means different things in MySQL and SQLite string literals.
 */
export function containsText(column: string, keyword: string): RawBuilder<boolean> {
  const pattern = `%${keyword.replace(/[!%_]/g, (character) => `!${character}`)}%`;
  return sql<boolean>`${sql.ref(column)} like ${pattern} escape '!'`;
}
