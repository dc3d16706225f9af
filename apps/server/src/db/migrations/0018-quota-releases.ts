import type { Kysely } from 'kysely';

/**
 * One row per reservation that recovery gave back (its server was thought gone), written in the transaction
 * that releases it. A settlement that later finds its reservation record gone reads this to tell "released by
 * recovery" (charge the request as if nothing had been reserved) from "settled already by a commit whose
 * answer was lost" (charge nothing more). Rows older than a day are pruned; the table is written only on the
 * rare recovery path, never by a normal request.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('quota_releases')
    .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
    .addColumn('released_at', 'bigint', (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('quota_releases').execute();
}
