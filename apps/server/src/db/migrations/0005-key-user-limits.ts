import { sql, type Kysely } from 'kysely';

const limitColumns = [
  ['rpm_limit', 'integer'],
  ['tpm_limit', 'integer'],
  ['max_parallel_requests', 'integer'],
  ['budget', 'bigint'],
] as const;

/**
 * Rate limits and a spend budget per period on keys and users (0 = unlimited, '' = no budget period), and a
 * key's per-model overrides as JSON text ('' = none). One column per statement: SQLite adds no more at a time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['tokens', 'users']) {
    for (const [column, type] of limitColumns) {
      await db.schema
        .alterTable(table)
        .addColumn(column, type, (builder) => builder.notNull().defaultTo(0))
        .execute();
    }
    await db.schema
      .alterTable(table)
      .addColumn('budget_period', 'varchar(16)', (builder) => builder.notNull().defaultTo(sql`''`))
      .execute();
  }
  await db.schema
    .alterTable('tokens')
    .addColumn('model_limits', 'text', (builder) => builder.notNull().defaultTo(sql`''`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tokens').dropColumn('model_limits').execute();
  for (const table of ['tokens', 'users']) {
    for (const column of ['budget_period', ...limitColumns.map(([name]) => name)]) {
      await db.schema.alterTable(table).dropColumn(column).execute();
    }
  }
}
