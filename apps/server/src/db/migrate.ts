import { Migrator, type Kysely } from 'kysely';
import { migrations } from './migrations/index';
import type { Database } from './schema';

export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  // Numbers are handed out ahead to work going on side by side, so a database can have run a later migration
  // before an earlier one landed: the missing one still runs (in name order) instead of stopping the server.
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
}
