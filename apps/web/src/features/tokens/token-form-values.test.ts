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
    });
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
