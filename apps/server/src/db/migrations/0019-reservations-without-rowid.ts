import { SqliteAdapter, sql, type Kysely } from 'kysely';

/**
 * SQLite only: quota_reservations becomes a WITHOUT ROWID table, its rows stored in the primary key's tree.
 * As an ordinary table each row lived in two trees (the rowid table and the index behind the text key), so
 * every request wrote a page more when it reserved and again when it settled. PostgreSQL and MySQL (InnoDB
 * keeps rows in the primary key already) are left as they are. The rows under way are copied over.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await rebuild(db, true);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await rebuild(db, false);
}

/** The table again with the columns of 0004, clustered on its key or not, holding the same rows. */
async function rebuild(db: Kysely<unknown>, isClustered: boolean): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  await db.schema
    .createTable('quota_reservations_rebuilt')
    .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
    .addColumn('user_id', 'integer', (column) => column.notNull())
    .addColumn('token_id', 'integer', (column) => column.notNull())
    .addColumn('is_unlimited_token', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('amount', 'bigint', (column) => column.notNull())
    .addColumn('node_id', 'varchar(128)', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('lease_expires_at', 'bigint', (column) => column.notNull())
    .addColumn('format_version', 'integer', (column) => column.notNull().defaultTo(1))
    .modifyEnd(isClustered ? sql`without rowid` : sql``)
    .execute();
  await sql`
    insert into quota_reservations_rebuilt
      (id, user_id, token_id, is_unlimited_token, amount, node_id, created_at, lease_expires_at, format_version)
    select id, user_id, token_id, is_unlimited_token, amount, node_id, created_at, lease_expires_at, format_version
    from quota_reservations`.execute(db);
  await db.schema.dropTable('quota_reservations').execute();
  await db.schema.alterTable('quota_reservations_rebuilt').renameTo('quota_reservations').execute();
}
