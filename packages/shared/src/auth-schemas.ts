import { z } from 'zod';

/** Limits shared by registration, add-user and self edit. */
export const USERNAME_MAX_LENGTH = 12;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 20;
export const DISPLAY_NAME_MAX_LENGTH = 20;

export const usernameSchema = z
  .string({ error: 'Username is required' })
  .trim()
  .min(1, 'Username is required')
  .max(USERNAME_MAX_LENGTH, `Username must be at most ${USERNAME_MAX_LENGTH} characters`);

export const passwordSchema = z
  .string({ error: 'Password is required' })
  .min(PASSWORD_MIN_LENGTH, 'Password length must not be less than 8!')
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

export const displayNameSchema = z
  .string()
  .trim()
  .max(DISPLAY_NAME_MAX_LENGTH, `Display name must be at most ${DISPLAY_NAME_MAX_LENGTH} characters`);

export const loginRequestSchema = z.object({
  username: z
    .string({ error: 'Username and password are required' })
    .trim()
    .min(1, 'Username and password are required'),
  password: z
    .string({ error: 'Username and password are required' })
    .min(1, 'Username and password are required'),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const registerRequestSchema = z.object({
  username: usernameSchema,
  password: passwordSchema,
  password2: z.string().optional(),
  email: z.string().trim().optional().default(''),
  verification_code: z.string().trim().optional().default(''),
  aff_code: z.string().trim().optional().default(''),
});
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

/** A new password on an edit form: blank or absent keeps the old one, else it must be 8 to 20 characters. */
export const optionalNewPasswordSchema = z
  .string()
  .optional()
  .refine(
    (value) => !value || (value.length >= PASSWORD_MIN_LENGTH && value.length <= PASSWORD_MAX_LENGTH),
    `Password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`,
  );

/** PUT /api/user/self: a user may change only its display name and password (blank keeps the old one). */
export const selfUpdateRequestSchema = z.object({
  display_name: displayNameSchema.optional(),
  password: optionalNewPasswordSchema,
});
export type SelfUpdateRequest = z.infer<typeof selfUpdateRequestSchema>;
