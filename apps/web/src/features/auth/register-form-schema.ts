import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, USERNAME_MAX_LENGTH } from '@gatehouse/shared';

/** Registration rules, with i18n keys as messages (the server checks the same limits). */
export const registerFormSchema = z
  .object({
    username: z
      .string()
      .trim()
      .min(1, 'auth.register.usernameRequired')
      .max(USERNAME_MAX_LENGTH, 'auth.register.usernameTooLong'),
    password: z
      .string()
      .min(1, 'auth.register.passwordRequired')
      .min(PASSWORD_MIN_LENGTH, 'auth.register.passwordTooShort')
      .max(PASSWORD_MAX_LENGTH, 'auth.register.passwordTooLong'),
    password2: z.string(),
    email: z.string().trim(),
    verification_code: z.string().trim(),
  })
  .refine((values) => values.password === values.password2, {
    path: ['password2'],
    error: 'auth.register.passwordMismatch',
  });
export type RegisterFormValues = z.infer<typeof registerFormSchema>;
