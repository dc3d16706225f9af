import type { BudgetPeriod, ModelLimits } from './limit-schemas';
/** The API entities as the management API answers them (snake_case, timestamps in seconds). */

export interface User {
  id: number;
  username: string;
  display_name: string;
  email: string;
  role: number;
  status: number;
  group: string;
  quota: number;
  used_quota: number;
  request_count: number;
  github_id: string;
  wechat_id: string;
  lark_id: string;
  /** the bound OpenID Connect account (issuer and subject), '' when none; absent from older servers */
  oidc_id?: string;
  aff_code: string;
  inviter_id: number;
  created_at: number;
  rpm_limit: number;
  tpm_limit: number;
  max_parallel_requests: number;
  budget: number;
  budget_period: BudgetPeriod;
  /** two-factor sign-in is on for this user (absent from servers without it) */
  two_factor_enabled?: boolean;
}

export interface Token {
  id: number;
  user_id: number;
  name: string;
  key: string;
  status: number;
  used_quota: number;
  remain_quota: number;
  unlimited_quota: boolean;
  request_count: number;
  created_time: number;
  accessed_time: number;
  expired_time: number;
  models: string;
  subnet: string;
  rpm_limit: number;
  tpm_limit: number;
  max_parallel_requests: number;
  budget: number;
  budget_period: BudgetPeriod;
  model_limits: ModelLimits;
}

export interface Channel {
  id: number;
  type: number;
  name: string;
  status: number;
  key: string;
  base_url: string;
  other: string;
  model_mapping: string;
  models: string;
  group: string;
  config: string;
  priority: number;
  weight: number;
  used_quota: number;
  request_count: number;
  response_time: number;
  test_time: number;
  balance: number;
  balance_updated_time: number;
  created_time: number;
  /**
   * Why the upstream last refused the channel's credentials (401/403); '' = it has not since a success. This
   * and health are absent from servers that do not track them: the console shows nothing then.
   */
  auth_failed_reason?: string;
  auth_failed_time?: number;
  /** how the channel has been doing on the server that answered (each server judges its own upstream calls) */
  health?: ChannelHealth;
}

/** A channel's circuit: closed (used), open (skipped after failures), half_open (one probe), resting (429). */
export type ChannelCircuitState = 'closed' | 'open' | 'half_open' | 'resting';

export interface ChannelHealth {
  /** the worst of its circuits (one per model), or auth_failed while the upstream refuses its credentials */
  state: ChannelCircuitState | 'auth_failed';
  /** Unix seconds when an open circuit may be probed or a rest ends; 0 = not timed */
  until: number;
  /** the model the state is about; '' when it concerns the whole channel or several models */
  model: string;
  /** the last failure's words */
  reason: string;
  /** every circuit that is not closed */
  circuits: Array<{ model: string; state: ChannelCircuitState; until: number }>;
  /** attempts through the channel in the last window_seconds, and the share that failed (0 to 1) */
  requests: number;
  error_rate: number;
  /** mean milliseconds until the upstream's answer began, over the window's answered attempts; 0 = none */
  latency_ms: number;
  window_seconds: number;
}

export interface Redemption {
  id: number;
  user_id: number;
  name: string;
  key: string;
  status: number;
  quota: number;
  created_time: number;
  redeemed_time: number;
  used_user_id: number;
}

export interface Log {
  id: number;
  user_id: number;
  username: string;
  type: number;
  content: string;
  token_name: string;
  model_name: string;
  prompt_tokens: number;
  completion_tokens: number;
  quota: number;
  channel: number;
  elapsed_time: number;
  is_stream: boolean;
  created_at: number;
  request_id: string;
  /** parts of prompt_tokens: read from and written to the vendor's prompt cache */
  cache_read_tokens: number;
  cache_write_tokens: number;
  /** part of completion_tokens */
  reasoning_tokens: number;
  /** audio / image prompt tokens not read from the cache (parts of prompt_tokens) */
  audio_input_tokens: number;
  image_input_tokens: number;
  /** generated audio / image tokens (parts of completion_tokens) */
  audio_output_tokens: number;
  image_output_tokens: number;
  /** the API the client called; '' on rows written before it was recorded */
  inbound_protocol: string;
  /** the ratios the charge was computed with; 0 on rows written before they were recorded */
  model_ratio: number;
  completion_ratio: number;
  cache_read_ratio: number;
  cache_write_ratio: number;
  /** audio / image prompt tokens relative to text ones, generated ones relative to text completion tokens */
  audio_input_ratio: number;
  image_input_ratio: number;
  audio_output_ratio: number;
  image_output_ratio: number;
  group_ratio: number;
  /** US dollars per call when the model was priced per call (then the ratios did not apply); 0 otherwise */
  call_price: number;
  /** milliseconds from the request's arrival to the first byte of its answer; 0 when not measured */
  first_token_ms: number;
  /** the attempts that failed before `channel` answered, in order; empty when the first channel answered */
  retries: LogRetry[];
}

/** One failed attempt of a request: the channel tried and why it failed. */
export interface LogRetry {
  channel: number;
  error: string;
}

export interface AvailableModel {
  model: string;
}

export interface ServerStatus {
  system_name: string;
  logo: string;
  footer_html: string;
  quota_per_unit: number;
  display_in_currency: boolean;
  display_token_stat: boolean;
  chat_link: string;
  top_up_link: string;
  server_address: string;
  version: string;
  start_time: number;
  email_verification: boolean;
  password_login: boolean;
  password_register: boolean;
  register_enabled: boolean;
  turnstile_check: boolean;
  turnstile_site_key: string;
  github_oauth: boolean;
  github_client_id: string;
  /** Where GitHub's authorise page lives (GITHUB_OAUTH_BASE_URL); servers without it mean github.com. */
  github_oauth_base_url?: string;
  wechat_login: boolean;
  wechat_qrcode: string;
  lark_client_id: string;
  /** sign-in with the configured OpenID Connect provider is on (absent from older servers) */
  oidc?: boolean;
  /** the label of its button, e.g. "Company SSO" */
  oidc_provider_name?: string;
  theme: string;
  /** REDIS_CONN_STRING is set but Redis does not answer: key and user limits are counted per node */
  limits_degraded: boolean;
}

export interface OptionEntry {
  key: string;
  value: string;
}
