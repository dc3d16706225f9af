import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config/config';
import { createDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { ImportRefusedError, formatReport, importOneApi } from './one-api-import';
import { openSource } from './one-api-source';

/**
 * npm run import -- --from <postgres://… | mysql://… | one-api.db> [--dry-run] [--with-logs]
 * Imports into the database this server is configured with (SQL_DSN / SQLITE_PATH), migrated first.
 */
async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      from: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      'with-logs': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || !values.from) {
    console.error(
      'usage: npm run import -- --from <postgres://… | mysql://… | path/to/one-api.db> [--dry-run] [--with-logs]',
    );
    return values.help ? 0 : 2;
  }
  const config = loadConfig();
  const target = await createDatabase(config);
  let source;
  try {
    source = await openSource(values.from);
    await migrateToLatest(target);
    const report = await importOneApi(target, source, {
      dryRun: values['dry-run'],
      withLogs: values['with-logs'],
      onTable: (table) => {
        console.error(`reading ${table}…`);
      },
    });
    console.log(formatReport(report));
    return 0;
  } finally {
    await source?.destroy();
    await target.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ImportRefusedError || error instanceof ConfigError)
      console.error(`Refused: ${error.message}`);
    else
      console.error(
        `Import failed, nothing was written: ${error instanceof Error ? error.message : String(error)}`,
      );
    process.exit(1);
  },
);
