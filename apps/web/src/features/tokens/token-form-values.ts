import {
  NEW_TOKEN_DEFAULT_QUOTA,
  TOKEN_NAME_MAX_LENGTH,
  splitCommaList,
  type Token,
} from '@gatehouse/shared';
import type { TokenPayload } from './tokens-queries';
import { formatExpiry, parseExpiry } from './token-expiry';

export interface TokenFormValues {
  name: string;
  /** a NumberInput answers '' when cleared */
  remainQuota: number | string;
  unlimited: boolean;
  /** 'YYYY-MM-DD HH:mm:ss', blank = never */
  expiry: string;
  models: string[];
  subnet: string;
}

/** SPEC §9: a new key starts with 500 000 quota and never expires. */
export const newTokenFormValues = (): TokenFormValues => ({
  name: '',
  remainQuota: NEW_TOKEN_DEFAULT_QUOTA,
  unlimited: false,
  expiry: '',
  models: [],
  subnet: '',
});

export const tokenToFormValues = (token: Token): TokenFormValues => ({
  name: token.name,
  remainQuota: token.remain_quota,
  unlimited: token.unlimited_quota,
  expiry: formatExpiry(token.expired_time),
  models: splitCommaList(token.models),
  subnet: token.subnet,
});

export type TokenFormIssues = Partial<Record<keyof TokenFormValues, string>>;

/** The form's checks, as i18n keys; the server checks everything again (subnets in particular). */
export function validateTokenForm(values: TokenFormValues): TokenFormIssues {
  const issues: TokenFormIssues = {};
  const name = values.name.trim();
  if (name === '') issues.name = 'tokens.form.nameRequired';
  else if (name.length > TOKEN_NAME_MAX_LENGTH) issues.name = 'tokens.form.nameTooLong';
  const quota = Number(values.remainQuota);
  if (!values.unlimited && (values.remainQuota === '' || !Number.isInteger(quota) || quota < 0)) {
    issues.remainQuota = 'tokens.form.quotaInvalid';
  }
  if (parseExpiry(values.expiry) === null) issues.expiry = 'tokens.form.expiryFormatError';
  return issues;
}

/** Only call after `validateTokenForm` found nothing. */
export function toTokenPayload(values: TokenFormValues): TokenPayload {
  const quota = Number(values.remainQuota);
  return {
    name: values.name.trim(),
    remain_quota: Number.isInteger(quota) && quota >= 0 ? quota : 0,
    unlimited_quota: values.unlimited,
    expired_time: parseExpiry(values.expiry) ?? -1,
    models: values.models.join(','),
    subnet: splitCommaList(values.subnet).join(','),
  };
}
