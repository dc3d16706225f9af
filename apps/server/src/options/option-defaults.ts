/**
 * Every option with its default (each listed with its meaning in docs/configuration.md). Values are strings
 * in the store (booleans 'true'/'false'); the kind drives validation and typed reads.
 */
export type OptionKind = 'boolean' | 'number' | 'text' | 'json' | 'secret';

interface OptionDefinition {
  kind: OptionKind;
  defaultValue: string;
}

const bool = (value: boolean): OptionDefinition => ({ kind: 'boolean', defaultValue: String(value) });
const number = (value: number): OptionDefinition => ({ kind: 'number', defaultValue: String(value) });
const text = (value = ''): OptionDefinition => ({ kind: 'text', defaultValue: value });
const json = (value: string): OptionDefinition => ({ kind: 'json', defaultValue: value });
const secret = (): OptionDefinition => ({ kind: 'secret', defaultValue: '' });

export const optionDefinitions = {
  PasswordLoginEnabled: bool(true),
  PasswordRegisterEnabled: bool(true),
  EmailVerificationEnabled: bool(false),
  GitHubOAuthEnabled: bool(false),
  GitHubClientId: text(),
  GitHubClientSecret: secret(),
  LarkClientId: text(),
  LarkClientSecret: secret(),
  /** sign-in with any OpenID Connect provider (auth/oidc-sign-in.ts) */
  OidcEnabled: bool(false),
  /** the provider's discovery document, https://issuer/.well-known/openid-configuration */
  OidcDiscoveryURL: text(),
  OidcClientId: text(),
  OidcClientSecret: secret(),
  OidcScopes: text('openid profile email'),
  /** ID-token claims a new user's username, display name and e-mail are taken from */
  OidcUsernameClaim: text('preferred_username'),
  OidcDisplayNameClaim: text('name'),
  OidcEmailClaim: text('email'),
  /** the sign-in button's label: "Sign in with <name>" */
  OidcProviderName: text('OIDC'),
  WeChatAuthEnabled: bool(false),
  WeChatServerAddress: text(),
  WeChatServerToken: secret(),
  WeChatAccountQRCodeImageURL: text(),
  MessagePusherAddress: text(),
  MessagePusherToken: secret(),
  TurnstileCheckEnabled: bool(false),
  TurnstileSiteKey: text(),
  TurnstileSecretKey: secret(),
  /** the bearer token Prometheus scrapers send to GET /metrics; empty = metrics not served (nor counted) */
  MetricsToken: secret(),
  RegisterEnabled: bool(true),
  EmailDomainRestrictionEnabled: bool(false),
  EmailDomainWhitelist: text(
    'gmail.com,163.com,126.com,qq.com,outlook.com,hotmail.com,icloud.com,yahoo.com,foxmail.com',
  ),
  SMTPServer: text(),
  SMTPPort: number(587),
  SMTPAccount: text(),
  SMTPFrom: text(),
  SMTPToken: secret(),
  ServerAddress: text(),
  Footer: text(),
  Notice: text(),
  About: text(),
  SystemName: text('Gatehouse'),
  Logo: text(),
  HomePageContent: text(),
  Theme: text('default'),
  QuotaForNewUser: number(0),
  QuotaForInviter: number(0),
  QuotaForInvitee: number(0),
  QuotaRemindThreshold: number(1000),
  PreConsumedQuota: number(500),
  ModelRatio: json('{}'),
  CompletionRatio: json('{}'),
  /** model name → price of a cached prompt token read, relative to a fresh one (built-in defaults per vendor) */
  CacheReadRatio: json('{}'),
  /** model name → price of a prompt token written to the cache, relative to a fresh one */
  CacheWriteRatio: json('{}'),
  /** model name → price of an audio / image prompt token, relative to a text one (built-in defaults per vendor) */
  AudioInputRatio: json('{}'),
  ImageInputRatio: json('{}'),
  /** model name → price of a generated audio / image token, relative to a text one */
  AudioOutputRatio: json('{}'),
  ImageOutputRatio: json('{}'),
  GroupRatio: json('{"default":1,"vip":1,"svip":1}'),
  /** model name → US dollars per call: such a model is billed per call, whatever its tokens */
  ModelPrice: json('{}'),
  TopUpLink: text(),
  ChatLink: text(),
  QuotaPerUnit: number(500000),
  AutomaticDisableChannelEnabled: bool(false),
  AutomaticEnableChannelEnabled: bool(false),
  ChannelDisableThreshold: number(5),
  /** a refreshed channel balance below this (in the vendor's currency) e-mails root; 0 = off */
  ChannelBalanceWarningThreshold: number(0),
  LogConsumeEnabled: bool(true),
  DisplayInCurrencyEnabled: bool(true),
  DisplayTokenStatEnabled: bool(true),
  ApproximateTokenEnabled: bool(false),
  RetryTimes: number(0),
  /** consecutive failures of a channel for a model that open its circuit (skipped for a cool-down); 0 = off */
  CircuitBreakerThreshold: number(5),
  /** seconds an opened circuit waits before one probe request; doubles after each failed probe */
  CircuitBreakerCooldown: number(30),
  /** the longest cool-down, and the longest rest an upstream's Retry-After can ask for (seconds) */
  CircuitBreakerMaxCooldown: number(600),
  /** seconds a stream may wait for its first upstream byte before the next channel is tried; 0 = no limit */
  StreamFirstTokenTimeout: number(0),
  /** Responses API: keep responses for previous_response_id and GET/DELETE /v1/responses/{id} */
  ResponsesStorageEnabled: bool(false),
  /** days a stored response is kept, then pruned */
  ResponsesRetentionDays: number(30),
  /** days consumption logs and audit entries are kept, then pruned; 0 = keep forever */
  LogRetentionDays: number(0),
  /** admins and root must turn two-factor sign-in on before any admin call is answered */
  TwoFactorRequiredForAdmins: bool(false),
} satisfies Record<string, OptionDefinition>;

export type OptionKey = keyof typeof optionDefinitions;

export function isOptionKey(key: string): key is OptionKey {
  return Object.prototype.hasOwnProperty.call(optionDefinitions, key);
}

export function isSecretOption(key: OptionKey): boolean {
  return optionDefinitions[key].kind === 'secret';
}
