import { describe, expect, it } from 'vitest';
import { PASSWORD_MIN_LENGTH } from '@gatehouse/shared';
import { addUserFormSchema, editUserFormSchema } from './user-form-schema';
import { selfEditFormSchema } from './self-edit-form-schema';

const limits = {
  rpm_limit: '',
  tpm_limit: '',
  max_parallel_requests: '',
  budget: '',
  budget_period: '' as const,
};
const edit = { display_name: 'Ann', password: '', groups: ['default'], quota: 500, limits };
const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe('user form schemas', () => {
  it('lets an edit keep the password (blank) and refuses a short new one, as the own-account form does', () => {
    expect(editUserFormSchema.safeParse(edit).success).toBe(true);
    const short = 'x'.repeat(PASSWORD_MIN_LENGTH - 1);
    expect(messages(editUserFormSchema.safeParse({ ...edit, password: short }))).toEqual([
      'users.self.passwordTooShort',
    ]);
    expect(messages(selfEditFormSchema.safeParse({ display_name: 'Ann', password: short }))).toEqual([
      'users.self.passwordTooShort',
    ]);
  });

  it('checks the admin-only fields of an edit: quota and limits', () => {
    expect(messages(editUserFormSchema.safeParse({ ...edit, quota: -1 }))).toEqual([
      'users.form.quotaInvalid',
    ]);
    expect(messages(editUserFormSchema.safeParse({ ...edit, limits: { ...limits, rpm_limit: -1 } }))).toEqual(
      ['limits.invalidNumber'],
    );
  });

  it('refuses an overlong display name in every form, and a blank password when adding', () => {
    const long = 'n'.repeat(1000);
    expect(messages(editUserFormSchema.safeParse({ ...edit, display_name: long }))).toEqual([
      'users.self.displayNameTooLong',
    ]);
    expect(
      messages(addUserFormSchema.safeParse({ username: 'ann', display_name: long, password: '' })),
    ).toEqual([
      'users.self.displayNameTooLong',
      'users.form.passwordRequired',
      'users.self.passwordTooShort',
    ]);
  });
});
