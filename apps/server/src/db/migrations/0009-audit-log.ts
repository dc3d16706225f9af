import { sql, type Kysely } from 'kysely';
import { addIdColumn } from '../portable';

/**
 * The audit log (audit/): one row per change made through the management API or by the system (channel
 * health). `target_id` is text because an option's id is its key; `changes` is JSON, secrets already masked.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addIdColumn(db, db.schema.createTable('audit_log'))
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('actor_id', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('actor_name', 'varchar(64)', (column) => column.notNull().defaultTo(sql`''`))
    .addColumn('ip', 'varchar(64)', (column) => column.notNull().defaultTo(sql`''`))
    .addColumn('action', 'varchar(64)', (column) => column.notNull())
    .addColumn('target_type', 'varchar(32)', (column) => column.notNull())
    .addColumn('target_id', 'varchar(128)', (column) => column.notNull().defaultTo(sql`''`))
    .addColumn('target_name', 'varchar(255)', (column) => column.notNull().defaultTo(sql`''`))
    .addColumn('changes', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('audit_log_created_at_index').on('audit_log').column('created_at').execute();
  await db.schema
    .createIndex('audit_log_target_index')
    .on('audit_log')
    .columns(['target_type', 'target_id'])
    .execute();
  await db.schema.createIndex('audit_log_actor_name_index').on('audit_log').column('actor_name').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
}
