import {
  DOMAIN_PATTERN,
  findRatioJsonError,
  isRatioOptionKey,
  normalizeAddress,
  normalizeDomainList,
} from '@gatehouse/shared';
import { fail } from '../http/envelope';
import type { OptionStore } from './option-store';
import { isOptionKey, optionDefinitions, type OptionKey } from './option-defaults';

/** Number options that count something (quota, retries, a port): whole numbers only. */
const wholeNumberKeys = new Set<OptionKey>([
  'SMTPPort',
  'QuotaForNewUser',
  'QuotaForInviter',
  'QuotaForInvitee',
  'QuotaRemindThreshold',
  'PreConsumedQuota',
  'RetryTimes',
  'CircuitBreakerThreshold',
  'ResponsesRetentionDays',
  'LogRetentionDays',
]);

/** Addresses stored without a trailing slash; must be http(s) when set. */
const addressKeys = new Set<OptionKey>([
  'ServerAddress',
  'WeChatServerAddress',
  'MessagePusherAddress',
  'TopUpLink',
  'ChatLink',
]);

/** Where an ID token's fields for a new user come from; each names one claim. */
const oidcClaimKeys = new Set<OptionKey>(['OidcUsernameClaim', 'OidcDisplayNameClaim', 'OidcEmailClaim']);

/** The provider's discovery document (or its issuer, which the document is found under): http(s) only. */
function validateDiscoveryUrl(value: string): string {
  const address = value.trim();
  if (address === '') return address;
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return fail('OidcDiscoveryURL must be an http:// or https:// address');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    fail('OidcDiscoveryURL must be an http:// or https:// address');
  }
  if (url.username || url.password || url.hash) {
    fail('OidcDiscoveryURL must not contain credentials or a #fragment');
  }
  return url.href;
}

/** A switch that only makes sense once the options it relies on are filled in. */
const switchRequirements: Partial<Record<OptionKey, { needs: OptionKey[]; message: string }>> = {
  GitHubOAuthEnabled: {
    needs: ['GitHubClientId', 'GitHubClientSecret'],
    message: 'Fill in the GitHub client ID and client secret before enabling GitHub OAuth',
  },
  OidcEnabled: {
    needs: ['OidcDiscoveryURL', 'OidcClientId', 'OidcClientSecret'],
    message: 'Fill in the OIDC discovery URL, client ID and client secret before enabling OIDC sign-in',
  },
  EmailVerificationEnabled: {
    needs: ['SMTPServer', 'SMTPAccount'],
    message: 'Configure the SMTP server and account before enabling e-mail verification',
  },
  WeChatAuthEnabled: {
    needs: ['WeChatServerAddress', 'WeChatServerToken'],
    message: 'Fill in the WeChat server address and token before enabling WeChat login',
  },
  TurnstileCheckEnabled: {
    needs: ['TurnstileSiteKey', 'TurnstileSecretKey'],
    message: 'Fill in the Turnstile site key and secret key before enabling the Turnstile check',
  },
  EmailDomainRestrictionEnabled: {
    needs: ['EmailDomainWhitelist'],
    message: 'Add at least one domain to the whitelist before enabling the e-mail domain restriction',
  },
};

function validateBoolean(key: OptionKey, value: string, options: Pick<OptionStore, 'get'>): string {
  if (value !== 'true' && value !== 'false') fail(`${key} must be true or false`);
  const requirement = switchRequirements[key];
  if (
    value === 'true' &&
    requirement &&
    requirement.needs.some((needed) => options.get(needed).trim() === '')
  ) {
    fail(requirement.message);
  }
  return value;
}

function validateNumber(key: OptionKey, value: string): string {
  const number = value.trim() === '' ? Number.NaN : Number(value);
  if (wholeNumberKeys.has(key)) {
    if (!Number.isSafeInteger(number) || number < 0) fail(`${key} must be a whole number not less than 0`);
  } else if (!Number.isFinite(number) || number < 0) {
    fail(`${key} must be a number not less than 0`);
  }
  if (key === 'SMTPPort' && (number < 1 || number > 65535)) fail('SMTPPort must be between 1 and 65535');
  if (key === 'QuotaPerUnit' && number === 0) fail('QuotaPerUnit must be greater than 0');
  if (key === 'ResponsesRetentionDays' && number < 1) fail('ResponsesRetentionDays must be at least 1 day');
  return String(number);
}

function validateJson(key: OptionKey, value: string): string {
  if (!isRatioOptionKey(key)) return value;
  const error = findRatioJsonError(key, value);
  if (error) fail(error);
  return value.trim() === '' ? '{}' : JSON.stringify(JSON.parse(value));
}

function validateText(key: OptionKey, value: string): string {
  if (addressKeys.has(key)) {
    const address = normalizeAddress(value);
    if (address !== '' && !/^https?:\/\/[^\s/]+/i.test(address)) {
      fail(`${key} must be an http:// or https:// address`);
    }
    return address;
  }
  if (key === 'EmailDomainWhitelist') {
    const domains = normalizeDomainList(value);
    const invalid = domains.split(',').find((domain) => domain !== '' && !DOMAIN_PATTERN.test(domain));
    if (invalid !== undefined) fail(`"${invalid}" is not a valid e-mail domain`);
    return domains;
  }
  if (key === 'OidcDiscoveryURL') return validateDiscoveryUrl(value);
  if (key === 'OidcScopes') {
    const scopes = value.trim().split(/\s+/).filter(Boolean);
    if (!scopes.includes('openid')) fail('OidcScopes must include openid');
    return scopes.join(' ');
  }
  if (oidcClaimKeys.has(key)) {
    const claim = value.trim();
    if (!/^[\w.:/-]{1,100}$/.test(claim)) fail(`${key} must name a claim (letters, digits, _ . : / -)`);
    return claim;
  }
  if (key === 'SystemName' || key === 'Theme' || key === 'OidcClientId') return value.trim();
  if (key === 'OidcProviderName') {
    const name = value.trim();
    if (name.length > 40) fail('OidcProviderName must be at most 40 characters');
    return name;
  }
  return value;
}

/** A scraper sends the metrics token in a header: long enough not to be guessed, and no spaces. */
function validateMetricsToken(value: string): string {
  const token = value.trim();
  if (token !== '' && !/^[\x21-\x7e]{16,256}$/.test(token)) {
    fail('The metrics token must be 16 to 256 visible characters without spaces, or empty (not served)');
  }
  return token;
}

/**
 * Checks a value for an option by its kind and key and answers the value to store (normalised), or fails with
 * the message the console shows.
 */
export function validateOption(
  key: string,
  value: string,
  options: Pick<OptionStore, 'get'>,
): [OptionKey, string] {
  if (!isOptionKey(key)) fail(`Unknown option: ${key}`);
  const kind = optionDefinitions[key].kind;
  switch (kind) {
    case 'boolean':
      return [key, validateBoolean(key, value, options)];
    case 'number':
      return [key, validateNumber(key, value)];
    case 'json':
      return [key, validateJson(key, value)];
    case 'secret':
      return [key, key === 'MetricsToken' ? validateMetricsToken(value) : value.trim()];
    case 'text':
      return [key, validateText(key, value)];
  }
}
