import type { Kysely } from 'kysely';

/**
 * Console sign-ins, one row each (auth/session-store.ts). The cookie carries a random token; the row's id is
 * its SHA-256, so a copy of this table signs no one in. Deleting the row ends that session on every instance.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
    .addColumn('user_id', 'integer', (column) => column.notNull())
    .addColumn('session_version', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('last_seen_at', 'bigint', (column) => column.notNull())
    .addColumn('expires_at', 'bigint', (column) => column.notNull())
    .addColumn('ip', 'varchar(64)', (column) => column.notNull().defaultTo(''))
    .addColumn('user_agent', 'varchar(512)', (column) => column.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('idx_sessions_user_id').on('sessions').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sessions').execute();
}
