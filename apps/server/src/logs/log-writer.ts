import { LogType } from '@gatehouse/shared';
import type { Db } from '../db/database';
import type { NewLogRow } from '../db/schema';

export type LogEntry = Omit<NewLogRow, 'created_at'> & { created_at?: number };

/** Writes one log row; every kind of log (top-up, consumption, management, system) goes through here. */
export async function recordLog(db: Db, entry: LogEntry): Promise<void> {
  await db
    .insertInto('logs')
    .values({ ...entry, created_at: entry.created_at ?? Math.floor(Date.now() / 1000) })
    .execute();
}

export function recordSystemLog(db: Db, userId: number, username: string, content: string): Promise<void> {
  return recordLog(db, { user_id: userId, username, type: LogType.system, content });
}

export function recordManageLog(db: Db, userId: number, username: string, content: string): Promise<void> {
  return recordLog(db, { user_id: userId, username, type: LogType.manage, content });
}
