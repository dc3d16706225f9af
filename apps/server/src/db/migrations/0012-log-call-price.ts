import type { Kysely } from 'kysely';

/**
 * A consumption log row of a model priced per call (the ModelPrice option) records that price in US dollars, so
 * the row says what was charged and why; 0 on rows priced by tokens and on rows from before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('logs')
    .addColumn('call_price', 'double precision', (builder) => builder.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('logs').dropColumn('call_price').execute();
}
