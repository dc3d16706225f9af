import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Gateway } from './gateway-process';

export interface BillingCheck {
  /** requests root's request_count went up by (the ledger's batched counters) */
  billedRequests: number;
  usedQuota: number;
  /** the sum of consumption logs (type 2) */
  loggedQuota: number;
  /** error-level lines in the server's own log */
  serverErrors: number;
  /**
   * sizes of the SQLite database file and its WAL after the run, in MB: the WAL must start over under load
   * (wal-checkpointer.ts), so it stays tens of MB however long the run
   */
  databaseMb: number;
  walMb: number;
}

function fileMb(file: string): number {
  try {
    return Math.round(statSync(file).size / 1e5) / 10;
  } catch {
    return 0;
  }
}

/** After the load: the ledger flushed, the counters and the consumption logs must tell the same story. */
export async function checkBilling(gateway: Gateway): Promise<BillingCheck> {
  // The ledger writes once a second.
  await new Promise((resolve) => setTimeout(resolve, 2500));
  const self = await gateway.management.call<{ request_count: number; used_quota: number }>(
    'GET',
    '/api/user/self',
  );
  const stat = await gateway.management.call<{ quota: number }>('GET', '/api/log/stat?type=2');
  const serverErrors = readFileSync(gateway.logFile, 'utf8')
    .split('\n')
    .filter((line) => /"level":(50|60)/.test(line)).length;
  return {
    billedRequests: self.request_count,
    usedQuota: self.used_quota,
    loggedQuota: stat.quota,
    serverErrors,
    databaseMb: fileMb(path.join(gateway.dataDir, 'gatehouse.db')),
    walMb: fileMb(path.join(gateway.dataDir, 'gatehouse.db-wal')),
  };
}
