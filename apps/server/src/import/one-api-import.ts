import type { Db } from '../db/database';
import type {
  ImportContext,
  ImportOptions,
  ImportReport,
  Layout,
  SourceProduct,
  TableCount,
} from './import-context';
import { importChannels } from './import-channels';
import { importLogs, importOptions, importRedemptions } from './import-rest';
import { importTokens, importUsers } from './import-users-and-keys';
import { ImportRefusedError, readSourceLayout, type SourceDb } from './one-api-source';

/**
 * Copies a one-api or new-api database into ours, in one transaction of the target: any failure leaves the
 * target as it was. Collisions are never overwritten: the colliding row is skipped with a line in the report
 * (a user whose username is taken is skipped with its keys). A dry run runs the same import and rolls back.
 */

export type { ImportOptions, ImportReport, SourceProduct, TableCount } from './import-context';

export { ImportRefusedError };

const REQUIRED: Record<string, string[]> = {
  users: ['id', 'username', 'password', 'role', 'status', 'quota', 'used_quota', 'aff_code'],
  tokens: ['id', 'user_id', 'key', 'status', 'remain_quota', 'unlimited_quota', 'expired_time'],
  channels: ['id', 'type', 'key', 'status', 'models', 'group'],
  abilities: ['group', 'model', 'channel_id', 'enabled'],
  redemptions: ['id', 'key', 'status', 'quota'],
  options: ['key', 'value'],
};

export function detectSource(layout: Layout): { product: SourceProduct; version: string } {
  const missing: string[] = [];
  for (const [table, columns] of Object.entries(REQUIRED)) {
    const present = layout.get(table);
    if (!present) missing.push(`table ${table}`);
    else for (const column of columns) if (!present.has(column)) missing.push(`${table}.${column}`);
  }
  if (missing.length > 0) {
    const expected = Object.entries(REQUIRED)
      .map(([table, columns]) => `${table}(${columns.join(', ')})`)
      .join(', ');
    throw new ImportRefusedError(
      `not a one-api or new-api database: expected the tables ${expected}; missing ${missing.join(', ')}`,
    );
  }
  const users = layout.get('users')!;
  const tokens = layout.get('tokens')!;
  const channels = layout.get('channels')!;
  const isNewApi = users.has('aff_count') || tokens.has('model_limits') || channels.has('tag');
  if (isNewApi) {
    const version = channels.has('settings')
      ? '0.8.5 or later (channels.settings)'
      : channels.has('tag')
        ? 'before 0.8.5 (channels.tag, no channels.settings)'
        : 'early (no channels.tag)';
    return { product: 'new-api', version };
  }
  const version = channels.has('config')
    ? '0.6 or later (channels.config)'
    : channels.has('priority')
      ? '0.5 (channels.priority, no channels.config)'
      : 'before 0.5 (no channels.priority)';
  return { product: 'one-api', version };
}

class Rollback extends Error {}

export async function importOneApi(
  target: Db,
  source: SourceDb,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const layout = await readSourceLayout(source);
  const { product, version } = detectSource(layout);
  const report: ImportReport = {
    product,
    version,
    dryRun: Boolean(options.dryRun),
    tables: {},
    skipped: [],
    notes: [],
  };
  const count = (table: string): TableCount =>
    (report.tables[table] ??= { read: 0, imported: 0, skipped: 0 });
  const skip = (table: string, line: string) => {
    count(table).skipped += 1;
    report.skipped.push(`${table}: ${line}`);
  };
  const has = (table: string, column: string) => layout.get(table)?.has(column) ?? false;
  const now = Math.floor(Date.now() / 1000);

  try {
    await target.transaction().execute(async (trx) => {
      const ctx: ImportContext = {
        db: trx as unknown as Db,
        source,
        layout,
        product,
        options,
        report,
        now,
        userIds: new Map(),
        channelIds: new Map(),
        count,
        skip,
        has,
      };
      await importUsers(ctx);
      await importTokens(ctx);
      await importChannels(ctx);
      await importRedemptions(ctx);
      await importOptions(ctx);
      await importLogs(ctx);

      if (options.dryRun) throw new Rollback();
    });
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
  }
  return report;
}

/** The report as the CLI prints it. */
export function formatReport(report: ImportReport): string {
  const lines = [
    `${report.dryRun ? 'Dry run (nothing written)' : 'Imported'} from ${report.product}, schema ${report.version}`,
    '',
    'table        read  imported  skipped',
  ];
  for (const [table, counts] of Object.entries(report.tables)) {
    lines.push(
      `${table.padEnd(12)} ${String(counts.read).padStart(4)}  ${String(counts.imported).padStart(8)}  ${String(counts.skipped).padStart(7)}`,
    );
  }
  if (report.skipped.length > 0) lines.push('', 'Skipped:', ...report.skipped.map((line) => `  ${line}`));
  if (report.notes.length > 0) lines.push('', 'Notes:', ...report.notes.map((line) => `  ${line}`));
  return lines.join('\n');
}
