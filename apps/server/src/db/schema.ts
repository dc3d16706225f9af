import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Table types. Flags are integers 0/1 so SQLite, PostgreSQL and MySQL read them back alike;
 * timestamps are epoch seconds in bigint columns.
 */
export interface UsersTable {
  id: Generated<number>;
  username: string;
  password: string;
  display_name: Generated<string>;
  role: Generated<number>;
  status: Generated<number>;
  email: Generated<string>;
  github_id: Generated<string>;
  wechat_id: Generated<string>;
  lark_id: Generated<string>;
  access_token: Generated<string | null>;
  quota: Generated<number>;
  used_quota: Generated<number>;
  request_count: Generated<number>;
  group: Generated<string>;
  aff_code: string;
  inviter_id: Generated<number>;
  /** bumped to end every session of the user at once (disable, password change) */
  session_version: Generated<number>;
  created_at: number;
}

export interface TokensTable {
  id: Generated<number>;
  user_id: number;
  key: string;
  status: Generated<number>;
  name: Generated<string>;
  created_time: Generated<number>;
  accessed_time: Generated<number>;
  expired_time: Generated<number>;
  remain_quota: Generated<number>;
  unlimited_quota: Generated<number>;
  used_quota: Generated<number>;
  request_count: Generated<number>;
  models: Generated<string>;
  subnet: Generated<string>;
}

export interface ChannelsTable {
  id: Generated<number>;
  type: Generated<number>;
  key: string;
  status: Generated<number>;
  name: Generated<string>;
  weight: Generated<number>;
  created_time: Generated<number>;
  test_time: Generated<number>;
  response_time: Generated<number>;
  base_url: Generated<string>;
  other: Generated<string>;
  balance: Generated<number>;
  balance_updated_time: Generated<number>;
  models: Generated<string>;
  group: Generated<string>;
  used_quota: Generated<number>;
  request_count: Generated<number>;
  model_mapping: Generated<string>;
  priority: Generated<number>;
  config: Generated<string>;
}

export interface AbilitiesTable {
  group: string;
  model: string;
  channel_id: number;
  enabled: Generated<number>;
  priority: Generated<number>;
  weight: Generated<number>;
}

export interface RedemptionsTable {
  id: Generated<number>;
  user_id: Generated<number>;
  key: string;
  status: Generated<number>;
  name: Generated<string>;
  quota: Generated<number>;
  created_time: Generated<number>;
  redeemed_time: Generated<number>;
  used_user_id: Generated<number>;
}

export interface LogsTable {
  id: Generated<number>;
  user_id: Generated<number>;
  created_at: number;
  type: number;
  content: Generated<string>;
  username: Generated<string>;
  token_name: Generated<string>;
  model_name: Generated<string>;
  quota: Generated<number>;
  prompt_tokens: Generated<number>;
  completion_tokens: Generated<number>;
  channel_id: Generated<number>;
  /** milliseconds the request took */
  elapsed_time: Generated<number>;
  is_stream: Generated<number>;
  request_id: Generated<string>;
}

export interface OptionsTable {
  key: string;
  value: string;
}

export interface Database {
  users: UsersTable;
  tokens: TokensTable;
  channels: ChannelsTable;
  abilities: AbilitiesTable;
  redemptions: RedemptionsTable;
  logs: LogsTable;
  options: OptionsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type TokenRow = Selectable<TokensTable>;
export type ChannelRow = Selectable<ChannelsTable>;
export type AbilityRow = Selectable<AbilitiesTable>;
export type RedemptionRow = Selectable<RedemptionsTable>;
export type LogRow = Selectable<LogsTable>;
export type NewLogRow = Insertable<LogsTable>;
