import {
  NEW_TOKEN_DEFAULT_QUOTA,
  TOKEN_NAME_MAX_LENGTH,
  modelLimitsSchema,
  splitCommaList,
  type ModelLimits,
  type Token,
} from '@gatehouse/shared';
import {
  toLimitFields,
  toLimitFormValues,
  validateLimits,
  type LimitFormValues,
} from '../../components/limits/limit-form-values';
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
  limits: LimitFormValues;
  /** JSON text of the per-model overrides, blank = none */
  modelLimits: string;
}

/** A new key starts with 500 000 quota and never expires. */
export const newTokenFormValues = (): TokenFormValues => ({
  name: '',
  remainQuota: NEW_TOKEN_DEFAULT_QUOTA,
  unlimited: false,
  expiry: '',
  models: [],
  subnet: '',
  limits: { rpm_limit: '', tpm_limit: '', max_parallel_requests: '', budget: '', budget_period: '' },
  modelLimits: '',
});

export const tokenToFormValues = (token: Token): TokenFormValues => ({
  name: token.name,
  remainQuota: token.remain_quota,
  unlimited: token.unlimited_quota,
  expiry: formatExpiry(token.expired_time),
  models: splitCommaList(token.models),
  subnet: token.subnet,
  limits: toLimitFormValues(token),
  modelLimits: Object.keys(token.model_limits).length === 0 ? '' : JSON.stringify(token.model_limits),
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
  const limitsIssue = validateLimits(values.limits);
  if (limitsIssue) issues.limits = limitsIssue;
  if (!modelLimitsSchema.safeParse(values.modelLimits).success)
    issues.modelLimits = 'limits.modelLimitsInvalid';
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
    ...toLimitFields(values.limits),
    model_limits: modelLimitsSchema.parse(values.modelLimits) as ModelLimits,
  };
}
