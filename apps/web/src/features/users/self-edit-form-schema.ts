import { z } from 'zod';
import { DISPLAY_NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@gatehouse/shared';

/** Messages are i18n keys. A blank password means "keep the current one". */
export const selfEditFormSchema = z.object({
  display_name: z.string().trim().max(DISPLAY_NAME_MAX_LENGTH, 'users.self.displayNameTooLong'),
  password: z
    .string()
    .refine(
      (password) => password === '' || password.length >= PASSWORD_MIN_LENGTH,
      'users.self.passwordTooShort',
    )
    .refine((password) => password.length <= PASSWORD_MAX_LENGTH, 'users.self.passwordTooLong'),
});
export type SelfEditFormValues = z.infer<typeof selfEditFormSchema>;
