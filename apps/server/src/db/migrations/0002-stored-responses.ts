import { MysqlAdapter, sql, type Kysely } from 'kysely';

/**
 * Stored Responses API responses (previous_response_id, GET/DELETE /v1/responses/{id}). A conversation with
 * images can be megabytes: MySQL's `text` holds 64 KB, so there it is `longtext`; SQLite and PostgreSQL's
 * `text` has no such limit.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const longText = db.getExecutor().adapter instanceof MysqlAdapter ? sql`longtext` : sql`text`;
  await db.schema
    .createTable('stored_responses')
    .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
    .addColumn('user_id', 'integer', (column) => column.notNull())
    .addColumn('token_id', 'integer', (column) => column.notNull())
    .addColumn('model', 'varchar(255)', (column) => column.notNull())
    .addColumn('conversation', longText, (column) => column.notNull())
    .addColumn('response', longText, (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('stored_responses_created_at_index')
    .on('stored_responses')
    .column('created_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('stored_responses').ifExists().execute();
}
