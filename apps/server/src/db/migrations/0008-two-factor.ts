import type { Kysely } from 'kysely';
import { addIdColumn } from '../portable';

/**
 * Two-factor sign-in (auth/two-factor*.ts). `users.two_factor_enabled` lets the route guard and the sign-in
 * hook know without another query. `two_factor` holds the TOTP secret (sealed with a key derived from
 * SESSION_SECRET when one is configured) and the last time step a code was accepted for, so no code works
 * twice. Recovery codes are kept as SHA-256 hashes, one row each, deleted when used. A sign-in waiting for its
 * second factor is a row of `two_factor_challenges`, named by the hash of the token in the browser's cookie.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('two_factor_enabled', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('two_factor')
    .addColumn('user_id', 'integer', (column) => column.primaryKey())
    .addColumn('secret', 'varchar(255)', (column) => column.notNull())
    .addColumn('is_enabled', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('last_used_step', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('enabled_at', 'bigint', (column) => column.notNull().defaultTo(0))
    .execute();
  await addIdColumn(db, db.schema.createTable('two_factor_recovery_codes'))
    .addColumn('user_id', 'integer', (column) => column.notNull())
    .addColumn('code_hash', 'varchar(64)', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('idx_two_factor_recovery_codes_user_id')
    .on('two_factor_recovery_codes')
    .column('user_id')
    .execute();
  await db.schema
    .createTable('two_factor_challenges')
    .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
    .addColumn('user_id', 'integer', (column) => column.notNull())
    .addColumn('session_version', 'integer', (column) => column.notNull())
    .addColumn('expires_at', 'bigint', (column) => column.notNull())
    .addColumn('failed_attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('idx_two_factor_challenges_user_id')
    .on('two_factor_challenges')
    .column('user_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('two_factor_challenges').execute();
  await db.schema.dropTable('two_factor_recovery_codes').execute();
  await db.schema.dropTable('two_factor').execute();
  await db.schema.alterTable('users').dropColumn('two_factor_enabled').execute();
}
