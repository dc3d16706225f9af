import type { FastifyInstance } from 'fastify';
import { oneApiImportRequestSchema, type OneApiImportReport } from '@gatehouse/shared';
import type { AppContext } from '../context';
import { createGuards } from '../http/auth';
import { fail, ok } from '../http/envelope';
import { parseWith } from '../http/validate';
import { isOptionKey } from '../options/option-defaults';
import { ImportRefusedError, importOneApi } from './one-api-import';
import { openSource } from './one-api-source';

/**
 * POST /api/option/import-one-api (root): the `npm run import` of the console. The source is named by a DSN or
 * a SQLite path on the server; the answer is the report (counts, skipped rows, notes), never a secret.
 */
export function registerImportRoutes(app: FastifyInstance, context: AppContext): void {
  const { root } = createGuards(context);
  app.post('/api/option/import-one-api', { preHandler: root }, async (request) => {
    const input = parseWith(oneApiImportRequestSchema, request.body);
    let source;
    try {
      source = await openSource(input.from);
      const report: OneApiImportReport = await importOneApi(context.db, source, {
        dryRun: input.dry_run ?? false,
        withLogs: input.with_logs ?? false,
      });
      if (!report.dryRun) await takeImportedRows(context);
      return ok(report);
    } catch (error) {
      if (error instanceof ImportRefusedError) fail(error.message);
      const reason = error instanceof Error ? error.message : String(error);
      request.log.warn({ err: error }, 'one-api import failed');
      fail(`the import failed and nothing was written: ${reason}`);
    } finally {
      await source?.destroy();
    }
  });
}

/** The relay's caches and the option store learn of the new rows, here and (through the change feed) elsewhere. */
async function takeImportedRows(context: AppContext): Promise<void> {
  context.events.emit('channelsChanged');
  context.events.emit('keysChanged');
  const rows = await context.db.selectFrom('options').select(['key', 'value']).execute();
  for (const row of rows) {
    if (isOptionKey(row.key) && context.options.get(row.key) !== row.value) {
      context.options.noteWritten(row.key, row.value);
    }
  }
}
