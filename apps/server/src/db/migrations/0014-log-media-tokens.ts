import type { Kysely } from 'kysely';

const tokenColumns = [
  'audio_input_tokens',
  'image_input_tokens',
  'audio_output_tokens',
  'image_output_tokens',
] as const;
const ratioColumns = [
  'audio_input_ratio',
  'image_input_ratio',
  'audio_output_ratio',
  'image_output_ratio',
] as const;

/**
 * The consumption log itemises audio and image tokens (parts of the prompt and of the completion) and the ratios
 * that priced them, so a charge that includes them can be recomputed by hand. Rows written before keep 0 tokens
 * and ratio 0 (the console reads a 0 ratio on such a row as "not recorded"). One column per statement: SQLite
 * adds no more at a time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of tokenColumns) {
    await db.schema
      .alterTable('logs')
      .addColumn(column, 'integer', (builder) => builder.notNull().defaultTo(0))
      .execute();
  }
  for (const column of ratioColumns) {
    await db.schema
      .alterTable('logs')
      .addColumn(column, 'double precision', (builder) => builder.notNull().defaultTo(0))
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of [...ratioColumns, ...tokenColumns]) {
    await db.schema.alterTable('logs').dropColumn(column).execute();
  }
}
