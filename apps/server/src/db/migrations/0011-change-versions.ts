import type { Kysely } from 'kysely';

/** The topics a node caches and reloads when another node changes them (written out: a migration never changes). */
const CHANGE_TOPICS = ['channels', 'options', 'keys', 'users'] as const;

/**
 * One counter per cached topic. A node that changes channels, options, keys or users adds one to the topic's
 * row after its change commits; every node reads this tiny table a few times a second and reloads what moved.
 * The primary key is the only index it needs: the poll reads all four rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('change_versions')
    .addColumn('topic', 'varchar(32)', (column) => column.primaryKey())
    .addColumn('version', 'bigint', (column) => column.notNull().defaultTo(0))
    .execute();
  await (db as Kysely<{ change_versions: { topic: string; version: number } }>)
    .insertInto('change_versions')
    .values(CHANGE_TOPICS.map((topic) => ({ topic, version: 0 })))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('change_versions').execute();
}
