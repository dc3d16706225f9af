import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config/config';
import { createDatabase } from '../db/database';
import { OptionStore } from '../options/option-store';
import { exportConfigFile } from './export-config-file';

/**
 * npm run config:export [-- --out file.yaml] [--with-secrets]: the database named by the usual environment
 * (SQL_DSN / SQLITE_PATH) written as a configuration file, to standard output unless --out is given.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { out: { type: 'string' }, 'with-secrets': { type: 'boolean', default: false } },
    strict: true,
  });
  const config = loadConfig();
  const db = await createDatabase(config);
  try {
    const options = new OptionStore(db);
    await options.reload();
    const text = await exportConfigFile({ db, options }, values['with-secrets'] ? 'include' : 'placeholders');
    if (values.out) {
      await writeFile(values.out, text, { mode: 0o600 });
      console.error(`configuration written to ${values.out}`);
    } else {
      process.stdout.write(text);
    }
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof TypeError ? error.message : error);
  process.exit(1);
});
