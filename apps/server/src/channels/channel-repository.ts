import { MAX_ROW_ID, type Channel, type ChannelHealth, type ChannelSortColumn } from '@gatehouse/shared';
import type { Db } from '../db/database';
import type { ChannelRow } from '../db/schema';
import { containsText, type Page } from '../db/paging';
import { redactConfig } from './channel-type-defaults';

export interface ChannelSort {
  column: ChannelSortColumn;
  direction: 'asc' | 'desc';
}

/**
 * The channel as the API answers it. The key (and the credentials inside config) are secrets: only root
 * reading one channel gets them, to edit or copy it; every list answers `key: ''`.
 */
export function toPublicChannel(
  row: ChannelRow,
  options: { withSecrets?: boolean; health?: ChannelHealth } = {},
): Channel {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    status: row.status,
    key: options.withSecrets ? row.key : '',
    base_url: row.base_url,
    other: row.other,
    model_mapping: row.model_mapping,
    models: row.models,
    group: row.group,
    config: options.withSecrets ? row.config : redactConfig(row.config),
    priority: Number(row.priority),
    weight: row.weight,
    used_quota: Number(row.used_quota),
    request_count: row.request_count,
    response_time: row.response_time,
    test_time: Number(row.test_time),
    balance: Number(row.balance),
    balance_updated_time: Number(row.balance_updated_time),
    created_time: Number(row.created_time),
    auth_failed_reason: row.auth_failed_reason,
    auth_failed_time: Number(row.auth_failed_time),
    health: options.health ?? quietHealth(),
  };
}

/** A channel this server has not relayed through lately (in a window of `windowSeconds`). */
export function quietHealth(windowSeconds = 0): ChannelHealth {
  return {
    state: 'closed',
    until: 0,
    model: '',
    reason: '',
    circuits: [],
    requests: 0,
    error_rate: 0,
    latency_ms: 0,
    window_seconds: windowSeconds,
  };
}

export function findChannelById(db: Db, id: number): Promise<ChannelRow | undefined> {
  return db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listChannels(db: Db, page: Page, sort: ChannelSort): Promise<ChannelRow[]> {
  let query = db.selectFrom('channels').selectAll().orderBy(sort.column, sort.direction);
  // A second key keeps pages stable when many rows share a value (priority 0, untested …).
  if (sort.column !== 'id') query = query.orderBy('id', 'desc');
  return query.limit(page.limit).offset(page.offset).execute();
}

/** Matches the id exactly, the name or the base URL in part; never the key. */
export function searchChannels(
  db: Db,
  keyword: string,
  page: Page,
  sort: ChannelSort,
): Promise<ChannelRow[]> {
  // A number no row can have as id is searched as text only (PostgreSQL and MySQL refuse it as an id).
  const id = /^\d+$/.test(keyword) && Number(keyword) <= MAX_ROW_ID ? Number(keyword) : null;
  let query = db
    .selectFrom('channels')
    .selectAll()
    .where((where) =>
      where.or([
        ...(id !== null ? [where('id', '=', id)] : []),
        containsText('name', keyword),
        containsText('base_url', keyword),
      ]),
    )
    .orderBy(sort.column, sort.direction);
  if (sort.column !== 'id') query = query.orderBy('id', 'desc');
  return query.limit(page.limit).offset(page.offset).execute();
}
