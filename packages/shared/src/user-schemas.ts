import { z } from 'zod';
import { displayNameSchema, optionalNewPasswordSchema, passwordSchema, usernameSchema } from './auth-schemas';
import { rowIdSchema } from './row-id';
import { optionalLimitFieldsSchema } from './limit-schemas';

/** GET /api/user/?order=: the server sorts by one of these (empty = newest first). */
export const userListOrders = ['', 'id', 'quota', 'used_quota', 'request_count'] as const;
export type UserListOrder = (typeof userListOrders)[number];

export const manageUserActions = ['promote', 'demote', 'disable', 'enable', 'delete'] as const;
export type ManageUserAction = (typeof manageUserActions)[number];

export const GROUP_NAME_PATTERN = /^[A-Za-z0-9_.-]+$/;
/** The users.group column holds at most 64 characters. */
export const GROUP_LIST_MAX_LENGTH = 64;
export const DEFAULT_GROUP = 'default';

/** A comma list of group names, trimmed, without blanks or repeats; empty means 'default'. */
export function normalizeGroupList(value: string): string {
  const names = [
    ...new Set(
      value
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    ),
  ];
  return names.length === 0 ? DEFAULT_GROUP : names.join(',');
}

export const groupListSchema = z
  .string()
  .transform(normalizeGroupList)
  .refine(
    (groups) => groups.split(',').every((name) => GROUP_NAME_PATTERN.test(name)),
    'A group name may only contain letters, digits, "_", "-" and "."',
  )
  .refine(
    (groups) => groups.length <= GROUP_LIST_MAX_LENGTH,
    `The group list must be at most ${GROUP_LIST_MAX_LENGTH} characters`,
  );

/** POST /api/user/ (add user): the registration rules without e-mail or invite code. */
export const createUserRequestSchema = z.object({
  username: usernameSchema,
  display_name: displayNameSchema.optional().default(''),
  password: passwordSchema,
});
export type CreateUserRequest = z.infer<typeof createUserRequestSchema>;

const quotaSchema = z.union(
  [
    z.number(),
    z
      .string()
      .trim()
      .regex(/^-?\d+$/, 'Quota must be a whole number'),
  ],
  {
    error: 'Quota must be a whole number',
  },
);

/** PUT /api/user/ (admin edit). Omitted fields keep their value; a blank password keeps the old one. */
export const updateUserRequestSchema = z.object({
  id: rowIdSchema,
  display_name: displayNameSchema.optional(),
  password: optionalNewPasswordSchema,
  quota: quotaSchema
    .transform(Number)
    .refine(Number.isSafeInteger, 'Quota must be a whole number')
    .refine((quota) => quota >= 0, 'Quota must not be negative')
    .optional(),
  group: groupListSchema.optional(),
  ...optionalLimitFieldsSchema.shape,
});
export type UpdateUserRequest = z.input<typeof updateUserRequestSchema>;

export const manageUserRequestSchema = z.object({
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required'),
  action: z.enum(manageUserActions, {
    error: `Unknown action; use one of ${manageUserActions.join(', ')}`,
  }),
});
export type ManageUserRequest = z.infer<typeof manageUserRequestSchema>;

/** What POST /api/user/manage answers: the user's new status and role. */
export interface ManageUserResult {
  status: number;
  role: number;
}
