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
  /** the OpenID Connect account: issuer, a space, then sub ('' when none) */
  oidc_id: Generated<string>;
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
  rpm_limit: Generated<number>;
  tpm_limit: Generated<number>;
  max_parallel_requests: Generated<number>;
  /** quota units per budget_period; 0 = no budget */
  budget: Generated<number>;
  /** '' | 'daily' | 'weekly' | 'monthly' */
  budget_period: Generated<string>;
  /** 1 when two-factor sign-in is on (its secret is in two_factor) */
  two_factor_enabled: Generated<number>;
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
  rpm_limit: Generated<number>;
  tpm_limit: Generated<number>;
  max_parallel_requests: Generated<number>;
  /** quota units per budget_period; 0 = no budget */
  budget: Generated<number>;
  /** '' | 'daily' | 'weekly' | 'monthly' */
  budget_period: Generated<string>;
  /** JSON: model → {rpm_limit?, tpm_limit?}; '' = no overrides */
  model_limits: Generated<string>;
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
  /** why the upstream last refused the channel's credentials (401/403); '' = it has not, or a success since */
  auth_failed_reason: Generated<string>;
  /** when (Unix seconds); 0 = never */
  auth_failed_time: Generated<number>;
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
  /** parts of prompt_tokens: read from and written to the vendor's prompt cache */
  cache_read_tokens: Generated<number>;
  cache_write_tokens: Generated<number>;
  /** part of completion_tokens */
  reasoning_tokens: Generated<number>;
  /** audio / image prompt tokens not read from the cache (parts of prompt_tokens) */
  audio_input_tokens: Generated<number>;
  image_input_tokens: Generated<number>;
  /** generated audio / image tokens (parts of completion_tokens) */
  audio_output_tokens: Generated<number>;
  image_output_tokens: Generated<number>;
  /** the API the client called (an InboundProtocol); '' on rows from before it was recorded */
  inbound_protocol: Generated<string>;
  /** the ratios the charge was computed with; 0 on rows from before they were recorded */
  model_ratio: Generated<number>;
  completion_ratio: Generated<number>;
  cache_read_ratio: Generated<number>;
  cache_write_ratio: Generated<number>;
  /** 0 on rows from before they were recorded */
  audio_input_ratio: Generated<number>;
  image_input_ratio: Generated<number>;
  audio_output_ratio: Generated<number>;
  image_output_ratio: Generated<number>;
  group_ratio: Generated<number>;
  /** US dollars per call when the model was priced per call (ModelPrice); 0 when priced by tokens */
  call_price: Generated<number>;
  /** milliseconds from the request's arrival to the first byte of its answer; 0 when not measured */
  first_token_ms: Generated<number>;
  /** the attempts that failed before the channel that answered, as JSON [{channel, error}]; '' when none */
  retries: Generated<string>;
}

export interface OptionsTable {
  key: string;
  value: string;
}

/** A Responses API response kept for previous_response_id and GET/DELETE /v1/responses/{id}. */
export interface StoredResponsesTable {
  /** resp_… */
  id: string;
  user_id: number;
  token_id: number;
  model: string;
  /** JSON: the canonical messages before this response, without its instructions */
  conversation: string;
  /** JSON: the response object as the client got it */
  response: string;
  created_at: number;
}

/** A reservation not settled yet (billing/quota-reservation.ts); deleted when settled or released. */
export interface QuotaReservationsTable {
  /** the request's id */
  id: string;
  user_id: number;
  token_id: number;
  /** 1 when only the user's balance was taken */
  is_unlimited_token: number;
  amount: number;
  /** the server process that owns the request (hostname/pid/boot id) */
  node_id: string;
  created_at: number;
  /** seconds; renewed by the owning node while the request runs */
  lease_expires_at: number;
  /** the layout of this row, so a server never guesses at rows a newer version wrote */
  format_version: number;
}

/** A reservation recovery gave back, kept a day so a late settlement of it is charged once (0018). */
export interface QuotaReleasesTable {
  /** the request's id */
  id: string;
  released_at: number;
}

export interface SessionsTable {
  /** SHA-256 (hex) of the token in the session cookie */
  id: string;
  user_id: number;
  /** the user's session_version at sign-in; bumping the user's ends the session */
  session_version: number;
  /** seconds */
  created_at: number;
  /** seconds; written at most once a minute */
  last_seen_at: number;
  /** seconds */
  expires_at: number;
  ip: string;
  user_agent: string;
}

/** One counter per cached topic, bumped after every change to it (sync/change-feed.ts). */
export interface ChangeVersionsTable {
  /** channels, options, keys or users */
  topic: string;
  version: number;
}

/** A user's TOTP secret (sealed, see auth/two-factor-secret.ts); pending until its first code is confirmed */
export interface TwoFactorTable {
  user_id: number;
  secret: string;
  is_enabled: Generated<number>;
  /** the newest 30-second step a code was accepted for; older and equal steps are refused (no replay) */
  last_used_step: Generated<number>;
  created_at: number;
  enabled_at: Generated<number>;
}

/** One unused recovery code: its SHA-256, deleted when used */
export interface TwoFactorRecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
}

/** A sign-in that passed its first step and waits for a code; id is the SHA-256 of the cookie's token */
export interface TwoFactorChallengesTable {
  id: string;
  user_id: number;
  session_version: number;
  expires_at: number;
  failed_attempts: Generated<number>;
}

/** One change made through the management API or by the system (audit/); `changes` is JSON, secrets masked. */
export interface AuditLogTable {
  id: Generated<number>;
  created_at: number;
  actor_id: number;
  actor_name: string;
  ip: string;
  action: string;
  target_type: string;
  target_id: string;
  target_name: string;
  changes: string;
}

/**
 * Usage summed per bucket (an hour or a day of the server's clock, starting at bucket_start) and per user,
 * key name, model and channel: derived from the logs (rollups/), so it can always be rebuilt from them.
 */
export interface UsageRollupsTable {
  bucket_start: number;
  user_id: number;
  token_name: string;
  model_name: string;
  channel_id: number;
  request_count: number;
  error_count: number;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens: number;
  /** audio and image tokens (parts of prompt_tokens and completion_tokens), from migration 0016 */
  audio_input_tokens: number;
  image_input_tokens: number;
  audio_output_tokens: number;
  image_output_tokens: number;
  /** over the requests that succeeded (request_count - error_count) */
  latency_ms_sum: number;
  /** counts of succeeded requests per latency bucket (rollups/latency-histogram.ts) */
  latency_bucket_0: number;
  latency_bucket_1: number;
  latency_bucket_2: number;
  latency_bucket_3: number;
  latency_bucket_4: number;
  latency_bucket_5: number;
  latency_bucket_6: number;
  latency_bucket_7: number;
  latency_bucket_8: number;
  latency_bucket_9: number;
  latency_bucket_10: number;
  /** streamed requests that succeeded and whose first byte time was measured (logs.first_token_ms > 0) */
  ttft_count: number;
  ttft_ms_sum: number;
  /** the same fixed buckets as latency, over time to first token */
  ttft_bucket_0: number;
  ttft_bucket_1: number;
  ttft_bucket_2: number;
  ttft_bucket_3: number;
  ttft_bucket_4: number;
  ttft_bucket_5: number;
  ttft_bucket_6: number;
  ttft_bucket_7: number;
  ttft_bucket_8: number;
  ttft_bucket_9: number;
  ttft_bucket_10: number;
}

export interface Database {
  users: UsersTable;
  tokens: TokensTable;
  channels: ChannelsTable;
  abilities: AbilitiesTable;
  redemptions: RedemptionsTable;
  logs: LogsTable;
  options: OptionsTable;
  stored_responses: StoredResponsesTable;
  quota_reservations: QuotaReservationsTable;
  quota_releases: QuotaReleasesTable;
  sessions: SessionsTable;
  audit_log: AuditLogTable;
  two_factor: TwoFactorTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
  two_factor_challenges: TwoFactorChallengesTable;
  change_versions: ChangeVersionsTable;
  usage_rollups_hourly: UsageRollupsTable;
  usage_rollups_daily: UsageRollupsTable;
}

export type SessionRow = Selectable<SessionsTable>;
export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type TokenRow = Selectable<TokensTable>;
export type ChannelRow = Selectable<ChannelsTable>;
export type AbilityRow = Selectable<AbilitiesTable>;
export type RedemptionRow = Selectable<RedemptionsTable>;
export type LogRow = Selectable<LogsTable>;
export type NewLogRow = Insertable<LogsTable>;
export type UsageRollupRow = Selectable<UsageRollupsTable>;
