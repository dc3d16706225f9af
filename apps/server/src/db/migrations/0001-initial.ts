import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { addIdColumn } from '../portable';

/**
 * Portable schema: only Kysely's schema builder, so the same migration runs on SQLite, PostgreSQL and MySQL.
 * Strings that are indexed are varchar (MySQL cannot index unbounded text).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addIdColumn(db, db.schema.createTable('users'))
    .addColumn('username', 'varchar(64)', (column) => column.notNull().unique())
    .addColumn('password', 'varchar(255)', (column) => column.notNull())
    .addColumn('display_name', 'varchar(64)', (column) => column.notNull().defaultTo(''))
    .addColumn('role', 'integer', (column) => column.notNull().defaultTo(1))
    .addColumn('status', 'integer', (column) => column.notNull().defaultTo(1))
    .addColumn('email', 'varchar(255)', (column) => column.notNull().defaultTo(''))
    .addColumn('github_id', 'varchar(64)', (column) => column.notNull().defaultTo(''))
    .addColumn('wechat_id', 'varchar(64)', (column) => column.notNull().defaultTo(''))
    .addColumn('lark_id', 'varchar(64)', (column) => column.notNull().defaultTo(''))
    .addColumn('access_token', 'varchar(64)', (column) => column.unique())
    .addColumn('quota', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('used_quota', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('request_count', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('group', 'varchar(64)', (column) => column.notNull().defaultTo('default'))
    .addColumn('aff_code', 'varchar(32)', (column) => column.notNull().unique())
    .addColumn('inviter_id', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('session_version', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (column) => column.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('users_email_index').on('users').column('email').execute();
  await db.schema.createIndex('users_github_id_index').on('users').column('github_id').execute();
  await db.schema.createIndex('users_wechat_id_index').on('users').column('wechat_id').execute();
  await db.schema.createIndex('users_lark_id_index').on('users').column('lark_id').execute();

  await addIdColumn(db, db.schema.createTable('tokens'))
    .addColumn('user_id', 'integer', (column) => column.notNull())
    .addColumn('key', 'varchar(64)', (column) => column.notNull().unique())
    .addColumn('status', 'integer', (column) => column.notNull().defaultTo(1))
    .addColumn('name', 'varchar(64)', (column) => column.notNull().defaultTo(''))
    .addColumn('created_time', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('accessed_time', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('expired_time', 'bigint', (column) => column.notNull().defaultTo(-1))
    .addColumn('remain_quota', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('unlimited_quota', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('used_quota', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('request_count', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('models', 'text', (column) => column.notNull().defaultTo(sql`''`))
    .addColumn('subnet', 'text', (column) => column.notNull().defaultTo(sql`''`))
    .execute();
  await db.schema.createIndex('tokens_user_id_index').on('tokens').column('user_id').execute();
  await db.schema.createIndex('tokens_name_index').on('tokens').column('name').execute();

  await addIdColumn(db, db.schema.createTable('channels'))
    .addColumn('type', 'integer', (column) => column.notNull().defaultTo(1))
    .addColumn('key', 'text', (column) => column.notNull())
    .addColumn('status', 'integer', (column) => column.notNull().defaultTo(1))
    .addColumn('name', 'varchar(128)', (column) => column.notNull().defaultTo(''))
    .addColumn('weight', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('created_time', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('test_time', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('response_time', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('base_url', 'varchar(512)', (column) => column.notNull().defaultTo(''))
    .addColumn('other', 'text', (column) => column.notNull().defaultTo(sql`''`))
    .addColumn('balance', 'double precision', (column) => column.notNull().defaultTo(0))
    .addColumn('balance_updated_time', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('models', 'text', (column) => column.notNull().defaultTo(sql`''`))
    .addColumn('group', 'varchar(255)', (column) => column.notNull().defaultTo('default'))
    .addColumn('used_quota', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('request_count', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('model_mapping', 'text', (column) => column.notNull().defaultTo(sql`''`))
    .addColumn('priority', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('config', 'text', (column) => column.notNull().defaultTo(sql`''`))
    .execute();
  await db.schema.createIndex('channels_name_index').on('channels').column('name').execute();

  await db.schema
    .createTable('abilities')
    .addColumn('group', 'varchar(64)', (column) => column.notNull())
    .addColumn('model', 'varchar(255)', (column) => column.notNull())
    .addColumn('channel_id', 'integer', (column) => column.notNull())
    .addColumn('enabled', 'integer', (column) => column.notNull().defaultTo(1))
    .addColumn('priority', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('weight', 'integer', (column) => column.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('abilities_primary_key', ['group', 'model', 'channel_id'])
    .execute();
  await db.schema.createIndex('abilities_channel_id_index').on('abilities').column('channel_id').execute();
  await db.schema
    .createIndex('abilities_pick_index')
    .on('abilities')
    .columns(['group', 'model', 'enabled', 'priority'])
    .execute();

  await addIdColumn(db, db.schema.createTable('redemptions'))
    .addColumn('user_id', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('key', 'varchar(64)', (column) => column.notNull().unique())
    .addColumn('status', 'integer', (column) => column.notNull().defaultTo(1))
    .addColumn('name', 'varchar(64)', (column) => column.notNull().defaultTo(''))
    .addColumn('quota', 'bigint', (column) => column.notNull().defaultTo(100000))
    .addColumn('created_time', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('redeemed_time', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('used_user_id', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('redemptions_name_index').on('redemptions').column('name').execute();

  await addIdColumn(db, db.schema.createTable('logs'))
    .addColumn('user_id', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('type', 'integer', (column) => column.notNull())
    .addColumn('content', 'text', (column) => column.notNull().defaultTo(sql`''`))
    .addColumn('username', 'varchar(64)', (column) => column.notNull().defaultTo(''))
    .addColumn('token_name', 'varchar(64)', (column) => column.notNull().defaultTo(''))
    .addColumn('model_name', 'varchar(255)', (column) => column.notNull().defaultTo(''))
    .addColumn('quota', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('prompt_tokens', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('completion_tokens', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('channel_id', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('elapsed_time', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('is_stream', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('request_id', 'varchar(64)', (column) => column.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('logs_created_at_index').on('logs').column('created_at').execute();
  await db.schema
    .createIndex('logs_user_id_created_at_index')
    .on('logs')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema.createIndex('logs_type_index').on('logs').column('type').execute();
  await db.schema.createIndex('logs_username_index').on('logs').column('username').execute();
  await db.schema.createIndex('logs_model_name_index').on('logs').column('model_name').execute();
  await db.schema.createIndex('logs_token_name_index').on('logs').column('token_name').execute();
  await db.schema.createIndex('logs_channel_id_index').on('logs').column('channel_id').execute();

  await db.schema
    .createTable('options')
    .addColumn('key', 'varchar(128)', (column) => column.primaryKey())
    .addColumn('value', 'text', (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['options', 'logs', 'redemptions', 'abilities', 'channels', 'tokens', 'users']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
