import { sql, type Kysely } from 'kysely';

/**
 * The OpenID Connect account a user signs in with: the provider's issuer and the account's `sub`, joined by a
 * space (a URL has none), so accounts of two providers never collide. Empty for users without one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('oidc_id', 'varchar(512)', (column) => column.notNull().defaultTo(sql`''`))
    .execute();
  await db.schema.createIndex('users_oidc_id_index').on('users').column('oidc_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_oidc_id_index').on('users').execute();
  await db.schema.alterTable('users').dropColumn('oidc_id').execute();
}
