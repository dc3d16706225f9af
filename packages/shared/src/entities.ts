/** The API entities of SPEC §3 as the management API answers them (snake_case, timestamps in seconds). */

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
  aff_code: string;
  inviter_id: number;
  created_at: number;
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
  theme: string;
}

export interface OptionEntry {
  key: string;
  value: string;
}
