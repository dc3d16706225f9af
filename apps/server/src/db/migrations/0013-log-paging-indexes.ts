import { MysqlAdapter, type Kysely } from 'kysely';

/**
 * The logs list pages newest first by (created_at, id) and filters by user, username, key name, model,
 * channel, type and a time range. Each filter gets one index led by its column and ending in created_at, id,
 * so a page under any filter — first or after a cursor — is an index range read of `size` rows, never a sort
 * of everything that matches. They replace the single-column indexes of 0001, which they cover as prefixes.
 *
 * Two columns for the log detail: the time to the answer's first byte and the channels that failed before the
 * one that answered.
 */
const PAGING_INDEXES: Array<[name: string, column: string]> = [
  ['logs_created_at_id_index', ''],
  ['logs_user_id_created_at_id_index', 'user_id'],
  ['logs_username_created_at_id_index', 'username'],
  ['logs_token_name_created_at_id_index', 'token_name'],
  ['logs_model_name_created_at_id_index', 'model_name'],
  ['logs_channel_id_created_at_id_index', 'channel_id'],
  ['logs_type_created_at_id_index', 'type'],
];

const REPLACED_INDEXES: Array<[name: string, columns: string[]]> = [
  ['logs_created_at_index', ['created_at']],
  ['logs_user_id_created_at_index', ['user_id', 'created_at']],
  ['logs_type_index', ['type']],
  ['logs_username_index', ['username']],
  ['logs_model_name_index', ['model_name']],
  ['logs_token_name_index', ['token_name']],
  ['logs_channel_id_index', ['channel_id']],
];

/** MySQL names the table of the index to drop; PostgreSQL and SQLite refuse that clause. */
function dropLogsIndex(db: Kysely<unknown>, name: string): Promise<void> {
  const drop = db.schema.dropIndex(name);
  return (db.getExecutor().adapter instanceof MysqlAdapter ? drop.on('logs') : drop).execute();
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, column] of PAGING_INDEXES) {
    const columns = column ? [column, 'created_at', 'id'] : ['created_at', 'id'];
    await db.schema.createIndex(name).on('logs').columns(columns).execute();
  }
  for (const [name] of REPLACED_INDEXES) {
    await dropLogsIndex(db, name);
  }
  await db.schema
    .alterTable('logs')
    .addColumn('first_token_ms', 'integer', (builder) => builder.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('logs')
    .addColumn('retries', 'varchar(1024)', (builder) => builder.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('logs').dropColumn('retries').execute();
  await db.schema.alterTable('logs').dropColumn('first_token_ms').execute();
  for (const [name, columns] of REPLACED_INDEXES) {
    await db.schema.createIndex(name).on('logs').columns(columns).execute();
  }
  for (const [name] of PAGING_INDEXES) {
    await dropLogsIndex(db, name);
  }
}
