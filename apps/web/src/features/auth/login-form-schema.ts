import { z } from 'zod';

/** Both fields non-empty. Messages are i18n keys. */
export const loginFormSchema = z.object({
  username: z.string().trim().min(1, 'auth.login.usernameRequired'),
  password: z.string().min(1, 'auth.login.passwordRequired'),
});
export type LoginFormValues = z.infer<typeof loginFormSchema>;
