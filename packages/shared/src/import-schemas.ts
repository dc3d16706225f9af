import { z } from 'zod';

/** POST /api/option/import-one-api (root): copy a one-api/new-api database into this server's. */
export const oneApiImportRequestSchema = z.object({
  from: z
    .string({
      message: 'from: give a postgres:// or mysql:// DSN or the path of a SQLite file on the server',
    })
    .trim()
    .min(1, 'from: give a postgres:// or mysql:// DSN or the path of a SQLite file on the server')
    .max(2000, 'from: at most 2000 characters'),
  dry_run: z.boolean({ message: 'dry_run: true or false' }).optional(),
  with_logs: z.boolean({ message: 'with_logs: true or false' }).optional(),
});
export type OneApiImportRequest = z.infer<typeof oneApiImportRequestSchema>;

export interface OneApiImportTableCount {
  read: number;
  imported: number;
  skipped: number;
}

/** What an import did (or, in a dry run, would do). */
export interface OneApiImportReport {
  product: 'one-api' | 'new-api';
  version: string;
  dryRun: boolean;
  tables: Record<string, OneApiImportTableCount>;
  skipped: string[];
  notes: string[];
}
