import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { newTokenFormValues, toTokenPayload, validateTokenForm } from './token-form-values';

describe('key form values', () => {
  it('starts a new key with 500 000 quota, never expiring, unrestricted', () => {
    expect(toTokenPayload({ ...newTokenFormValues(), name: ' laptop ' })).toEqual({
      name: 'laptop',
      remain_quota: 500000,
      unlimited_quota: false,
      expired_time: -1,
      models: '',
      subnet: '',
      rpm_limit: 0,
      tpm_limit: 0,
      max_parallel_requests: 0,
      budget: 0,
      budget_period: '',
      model_limits: {},
    });
  });

  it('sends limits as numbers (blank = 0) and the per-model overrides as an object', () => {
    const payload = toTokenPayload({
      ...newTokenFormValues(),
      name: 'limited',
      limits: {
        rpm_limit: 60,
        tpm_limit: '',
        max_parallel_requests: 4,
        budget: 1000,
        budget_period: 'weekly',
      },
      modelLimits: '{"gpt-4o": {"rpm_limit": 5}}',
    });
    expect(payload).toMatchObject({
      rpm_limit: 60,
      tpm_limit: 0,
      max_parallel_requests: 4,
      budget: 1000,
      budget_period: 'weekly',
      model_limits: { 'gpt-4o': { rpm_limit: 5 } },
    });
  });

  it('refuses negative limits, a budget without a period and per-model limits that are not JSON', () => {
    const values = { ...newTokenFormValues(), name: 'x' };
    expect(validateTokenForm({ ...values, limits: { ...values.limits, rpm_limit: -1 } }).limits).toBe(
      'limits.invalidNumber',
    );
    expect(validateTokenForm({ ...values, limits: { ...values.limits, budget: 5 } }).limits).toBe(
      'limits.budgetNeedsPeriod',
    );
    expect(validateTokenForm({ ...values, modelLimits: '{gpt' }).modelLimits).toBe(
      'limits.modelLimitsInvalid',
    );
  });

  it('sends the expiry as epoch seconds, models and subnets as comma lists', () => {
    const payload = toTokenPayload({
      ...newTokenFormValues(),
      name: 'ci',
      expiry: '2031-01-02 03:04:05',
      models: ['gpt-4o', 'gpt-4o-mini'],
      subnet: ' 10.0.0.0/8 ,, 192.168.0.0/16 ',
    });
    expect(payload).toMatchObject({
      expired_time: dayjs('2031-01-02 03:04:05').unix(),
      models: 'gpt-4o,gpt-4o-mini',
      subnet: '10.0.0.0/8,192.168.0.0/16',
    });
  });

  it('names each problem', () => {
    expect(validateTokenForm({ ...newTokenFormValues(), name: '  ' })).toEqual({
      name: 'tokens.form.nameRequired',
    });
    expect(validateTokenForm({ ...newTokenFormValues(), name: 'x'.repeat(31) }).name).toBe(
      'tokens.form.nameTooLong',
    );
    expect(validateTokenForm({ ...newTokenFormValues(), name: 'k', expiry: 'soon' })).toEqual({
      expiry: 'tokens.form.expiryFormatError',
    });
    expect(validateTokenForm({ ...newTokenFormValues(), name: 'k', remainQuota: '' })).toEqual({
      remainQuota: 'tokens.form.quotaInvalid',
    });
    // an unlimited key needs no quota
    expect(
      validateTokenForm({ ...newTokenFormValues(), name: 'k', remainQuota: '', unlimited: true }),
    ).toEqual({});
  });
});
