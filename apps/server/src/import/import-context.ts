import type { Db } from '../db/database';
import type { SourceDb } from './one-api-source';

export type SourceProduct = 'one-api' | 'new-api';

export interface TableCount {
  read: number;
  imported: number;
  skipped: number;
}

export interface ImportReport {
  product: SourceProduct;
  /** what the columns present say about the source's version */
  version: string;
  dryRun: boolean;
  tables: Record<string, TableCount>;
  /** one line per row left out and why */
  skipped: string[];
  /** what was carried over differently (new codes, roles, fields we have no place for) */
  notes: string[];
}

export interface ImportOptions {
  dryRun?: boolean;
  withLogs?: boolean;
  /** called as each table starts; an error thrown here aborts the import like any other */
  onTable?: (table: string) => void | Promise<void>;
}

export type Layout = Map<string, Set<string>>;

/** What the per-table steps share: the target's transaction, the source, the id maps and the report. */
export interface ImportContext {
  /** the target, inside the import's transaction */
  db: Db;
  source: SourceDb;
  layout: Layout;
  product: SourceProduct;
  options: ImportOptions;
  report: ImportReport;
  now: number;
  /** source user id → ours */
  userIds: Map<number, number>;
  /** source channel id → ours */
  channelIds: Map<number, number>;
  count: (table: string) => TableCount;
  skip: (table: string, line: string) => void;
  has: (table: string, column: string) => boolean;
}
