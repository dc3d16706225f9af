import { sql, type Kysely } from 'kysely';

/**
 * The reason an upstream last refused a channel's credentials (401/403) and when, shown in the channel list
 * whether or not automatic disabling is on; cleared by a success through the channel or a passing test.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('channels')
    .addColumn('auth_failed_reason', 'varchar(1024)', (builder) => builder.notNull().defaultTo(sql`''`))
    .execute();
  await db.schema
    .alterTable('channels')
    .addColumn('auth_failed_time', 'bigint', (builder) => builder.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('channels').dropColumn('auth_failed_time').execute();
  await db.schema.alterTable('channels').dropColumn('auth_failed_reason').execute();
}
