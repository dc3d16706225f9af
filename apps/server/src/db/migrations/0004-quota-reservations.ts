import type { Kysely } from 'kysely';

/**
 * One row per quota reservation that is not settled yet, written in the transaction that takes the quota and
 * deleted in the one that settles or refunds it. A row that outlives its lease belongs to a request whose
 * server died: recovery gives its amount back (billing/reservation-recovery.ts). No index beyond the key: the
 * table holds only the requests under way, and every index would be written twice by every request.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('quota_reservations')
    .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
    .addColumn('user_id', 'integer', (column) => column.notNull())
    .addColumn('token_id', 'integer', (column) => column.notNull())
    .addColumn('is_unlimited_token', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('amount', 'bigint', (column) => column.notNull())
    .addColumn('node_id', 'varchar(128)', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('lease_expires_at', 'bigint', (column) => column.notNull())
    .addColumn('format_version', 'integer', (column) => column.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('quota_reservations').execute();
}
