import { z } from 'zod';
import { RedemptionStatus } from './enums';
import { rowIdSchema } from './row-id';
import { integerField } from './token-schemas';

/** Issue 4: redemption limits and defaults shared by the console form and the server. */
export const REDEMPTION_NAME_MAX_LENGTH = 20;
export const REDEMPTION_KEY_LENGTH = 32;
export const REDEMPTION_MAX_COUNT = 100;
export const NEW_REDEMPTION_DEFAULT_QUOTA = 100_000;
export const NEW_REDEMPTION_DEFAULT_COUNT = 1;

const redemptionFields = {
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(REDEMPTION_NAME_MAX_LENGTH, `Name must be at most ${REDEMPTION_NAME_MAX_LENGTH} characters`),
  quota: integerField('Quota must be a whole number greater than 0').pipe(
    z.number().positive('Quota must be a whole number greater than 0'),
  ),
};

export const createRedemptionRequestSchema = z.object({
  ...redemptionFields,
  count: integerField(`Count must be a whole number from 1 to ${REDEMPTION_MAX_COUNT}`)
    .pipe(
      z
        .number()
        .min(1, `Count must be a whole number from 1 to ${REDEMPTION_MAX_COUNT}`)
        .max(REDEMPTION_MAX_COUNT, `Count must be a whole number from 1 to ${REDEMPTION_MAX_COUNT}`),
    )
    .default(NEW_REDEMPTION_DEFAULT_COUNT),
});
export type CreateRedemptionRequest = z.input<typeof createRedemptionRequestSchema>;

export const updateRedemptionRequestSchema = z.object({ id: rowIdSchema, ...redemptionFields });
export type UpdateRedemptionRequest = z.input<typeof updateRedemptionRequestSchema>;

/** An admin toggles between unused and disabled; used is set only by a top-up. */
export const redemptionStatusRequestSchema = z.object({
  id: rowIdSchema,
  status: integerField('status must be 1 (unused) or 2 (disabled)').refine(
    (value) => value === RedemptionStatus.unused || value === RedemptionStatus.disabled,
    'status must be 1 (unused) or 2 (disabled)',
  ),
});

export const topupRequestSchema = z.object({
  key: z
    .string({ error: 'Please enter a redemption code' })
    .trim()
    .min(1, 'Please enter a redemption code')
    .max(128, 'Invalid redemption code'),
});
export type TopupRequest = z.infer<typeof topupRequestSchema>;
