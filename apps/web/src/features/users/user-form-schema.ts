import { z } from 'zod';
import { validateLimits, type LimitFormValues } from '../../components/limits/limit-form-values';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, USERNAME_MAX_LENGTH } from '@gatehouse/shared';
import { selfEditFormSchema } from './self-edit-form-schema';

/** Messages are i18n keys (see users.json). */
export const addUserFormSchema = z.object({
  username: z
    .string()
    .trim()
    .min(1, 'users.form.usernameRequired')
    .max(USERNAME_MAX_LENGTH, 'users.form.usernameTooLong'),
  display_name: selfEditFormSchema.shape.display_name,
  password: z
    .string()
    .min(1, 'users.form.passwordRequired')
    .min(PASSWORD_MIN_LENGTH, 'users.self.passwordTooShort')
    .max(PASSWORD_MAX_LENGTH, 'users.self.passwordTooLong'),
});
export type AddUserFormValues = z.infer<typeof addUserFormSchema>;

/** What a user may change on their own account, and what only an admin sets. */
export const editUserFormSchema = selfEditFormSchema.extend({
  groups: z.array(z.string()),
  quota: z
    .number({ error: 'users.form.quotaInvalid' })
    .int('users.form.quotaInvalid')
    .min(0, 'users.form.quotaInvalid'),
  limits: z.custom<LimitFormValues>().superRefine((limits, context) => {
    const issue = validateLimits(limits);
    if (issue) context.addIssue({ code: 'custom', message: issue });
  }),
});
export type EditUserFormValues = z.infer<typeof editUserFormSchema>;
