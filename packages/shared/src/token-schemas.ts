import { z } from 'zod';
import { TokenStatus } from './enums';
import { rowIdSchema } from './row-id';
import { limitFieldsSchema, modelLimitsSchema } from './limit-schemas';

/** Issue 4: key limits and defaults shared by the console form and the server. */
export const TOKEN_NAME_MAX_LENGTH = 30;
export const TOKEN_KEY_LENGTH = 48;
export const TOKEN_KEY_PREFIX = 'sk-';
export const NEW_TOKEN_DEFAULT_QUOTA = 500_000;
export const NEVER_EXPIRES = -1;
/** 9999-12-31: anything later is a millisecond value sent by mistake. */
export const MAX_EPOCH_SECONDS = 253_402_300_799;

/** Splits a comma list, trims each entry and drops blanks and repeats: ' a, b,,a ' → ['a', 'b']. */
export function splitCommaList(value: string): string[] {
  return [
    ...new Set(
      value
        .split(/[,，\n]/)
        .map((entry) => entry.trim())
        .filter(Boolean),
    ),
  ];
}

/** Integers may arrive as numbers or numeric text (scripts); anything else fails with the field's message. */
export const integerField = (message: string) =>
  z.preprocess(
    (value) => (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value),
    z.number({ error: message }).int(message).max(Number.MAX_SAFE_INTEGER, message),
  );

const commaList = z
  .string()
  .max(65_535)
  .transform((value) => splitCommaList(value).join(','));

const flag = z.preprocess(
  (value) => (value === 1 || value === 0 ? value === 1 : value),
  z.boolean({ error: 'unlimited_quota must be true or false' }),
);

export const tokenFieldsSchema = z.object({
  name: z
    .string({ error: 'Key name is required' })
    .trim()
    .min(1, 'Key name is required')
    .max(TOKEN_NAME_MAX_LENGTH, `Key name must be at most ${TOKEN_NAME_MAX_LENGTH} characters`),
  remain_quota: integerField('remain_quota must be a whole number of at least 0')
    .pipe(z.number().min(0, 'remain_quota must be a whole number of at least 0'))
    .default(0),
  expired_time: integerField('expired_time must be -1 (never) or a time in seconds since epoch')
    .refine(
      (value) => value === NEVER_EXPIRES || (value > 0 && value <= MAX_EPOCH_SECONDS),
      'expired_time must be -1 (never) or a time in seconds since epoch',
    )
    .default(NEVER_EXPIRES),
  unlimited_quota: flag.default(false),
  models: commaList.default(''),
  /** CIDR syntax is checked by the server (node:net); here it is only normalised. */
  subnet: commaList.default(''),
  ...limitFieldsSchema.shape,
  model_limits: modelLimitsSchema.default({}),
});

export const createTokenRequestSchema = tokenFieldsSchema;
export type CreateTokenRequest = z.input<typeof createTokenRequestSchema>;

export const updateTokenRequestSchema = tokenFieldsSchema.extend({ id: rowIdSchema });
export type UpdateTokenRequest = z.input<typeof updateTokenRequestSchema>;

/** A user toggles between enabled and disabled; expired and exhausted are set by the server. */
export const tokenStatusRequestSchema = z.object({
  id: rowIdSchema,
  status: integerField('status must be 1 (enabled) or 2 (disabled)').refine(
    (value) => value === TokenStatus.enabled || value === TokenStatus.disabled,
    'status must be 1 (enabled) or 2 (disabled)',
  ),
});

export const TOKEN_ORDERS = ['', 'remain_quota', 'used_quota'] as const;
export type TokenOrder = (typeof TOKEN_ORDERS)[number];

/** The key as clients use it. */
export const displayTokenKey = (key: string): string => `${TOKEN_KEY_PREFIX}${key}`;
