import { sql, type Kysely } from 'kysely';

const tokenColumns = ['cache_read_tokens', 'cache_write_tokens', 'reasoning_tokens'] as const;
const ratioColumns = [
  'model_ratio',
  'completion_ratio',
  'cache_read_ratio',
  'cache_write_ratio',
  'group_ratio',
] as const;

/**
 * The consumption log itemises what a request was billed for — cache reads and writes (parts of the prompt),
 * reasoning (part of the completion), the protocol the client spoke and every ratio applied — so a user can
 * recompute a charge by hand. Rows written before keep 0 and '' (their ratios are in their content text): the
 * console tells them apart by their empty protocol. One column per statement: SQLite adds no more at a time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of tokenColumns) {
    await db.schema
      .alterTable('logs')
      .addColumn(column, 'integer', (builder) => builder.notNull().defaultTo(0))
      .execute();
  }
  await db.schema
    .alterTable('logs')
    .addColumn('inbound_protocol', 'varchar(32)', (builder) => builder.notNull().defaultTo(sql`''`))
    .execute();
  for (const column of ratioColumns) {
    await db.schema
      .alterTable('logs')
      .addColumn(column, 'double precision', (builder) => builder.notNull().defaultTo(0))
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of [...ratioColumns, 'inbound_protocol', ...tokenColumns]) {
    await db.schema.alterTable('logs').dropColumn(column).execute();
  }
}
