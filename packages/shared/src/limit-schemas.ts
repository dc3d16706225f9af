import { z } from 'zod';

/** Issue 14: rate limits and budgets on keys and users. 0 (or '') means unlimited. */
export const BUDGET_PERIODS = ['', 'daily', 'weekly', 'monthly'] as const;
export type BudgetPeriod = (typeof BUDGET_PERIODS)[number];

export const LIMIT_MAXIMUMS = {
  rpm_limit: 1_000_000,
  tpm_limit: 1_000_000_000,
  max_parallel_requests: 100_000,
  budget: 1_000_000_000_000_000,
} as const;
export type LimitField = keyof typeof LIMIT_MAXIMUMS;

// Kept apart from token-schemas' integerField (same rule) because token-schemas imports this file.
const integerField = (message: string) =>
  z.preprocess(
    (value) => (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value),
    z.number({ error: message }).int(message),
  );

const limitField = (field: LimitField) => {
  const message = `${field} must be a whole number from 0 (unlimited) to ${LIMIT_MAXIMUMS[field]}`;
  return integerField(message).pipe(z.number().min(0, message).max(LIMIT_MAXIMUMS[field], message));
};

const budgetPeriodField = z.enum(BUDGET_PERIODS, {
  error: 'budget_period must be "", "daily", "weekly" or "monthly"',
});

export interface ModelLimit {
  rpm_limit?: number;
  tpm_limit?: number;
}
export type ModelLimits = Record<string, ModelLimit>;

export const MODEL_LIMITS_MAX_ENTRIES = 100;

const modelLimitSchema = z.strictObject(
  { rpm_limit: limitField('rpm_limit').optional(), tpm_limit: limitField('tpm_limit').optional() },
  { error: 'model_limits entries take only rpm_limit and tpm_limit' },
);

/** A key's per-model overrides: `{"gpt-4o": {"rpm_limit": 5}}`, as an object or its JSON text ('' = none). */
export const modelLimitsSchema = z.preprocess(
  (value) => {
    if (typeof value !== 'string') return value ?? {};
    if (value.trim() === '') return {};
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  },
  z
    .record(
      z.string().trim().min(1, 'model_limits needs a model name for each entry').max(100),
      modelLimitSchema,
      { error: 'model_limits must map model names to {rpm_limit, tpm_limit}' },
    )
    .refine(
      (limits) => Object.keys(limits).length <= MODEL_LIMITS_MAX_ENTRIES,
      `model_limits takes at most ${MODEL_LIMITS_MAX_ENTRIES} models`,
    ),
);

/** Reads stored model_limits text; a row written by hand that does not parse counts as no overrides. */
export function parseModelLimits(text: string): ModelLimits {
  const parsed = modelLimitsSchema.safeParse(text);
  return parsed.success ? (parsed.data as ModelLimits) : {};
}

export const limitFieldsSchema = z.object({
  rpm_limit: limitField('rpm_limit').default(0),
  tpm_limit: limitField('tpm_limit').default(0),
  max_parallel_requests: limitField('max_parallel_requests').default(0),
  budget: limitField('budget').default(0),
  budget_period: budgetPeriodField.default(''),
});

/** The admin edit of a user: every limit optional (omitted keeps its value). */
export const optionalLimitFieldsSchema = z.object({
  rpm_limit: limitField('rpm_limit').optional(),
  tpm_limit: limitField('tpm_limit').optional(),
  max_parallel_requests: limitField('max_parallel_requests').optional(),
  budget: limitField('budget').optional(),
  budget_period: budgetPeriodField.optional(),
});

export const BUDGET_WITHOUT_PERIOD = 'budget needs a budget_period: "daily", "weekly" or "monthly"';

/** A budget counts per period: one without a period is refused rather than silently ignored. */
export function findBudgetRefusal(
  limits: Partial<Pick<LimitFields, 'budget' | 'budget_period'>>,
): string | null {
  return (limits.budget ?? 0) > 0 && (limits.budget_period ?? '') === '' ? BUDGET_WITHOUT_PERIOD : null;
}

export interface LimitFields {
  rpm_limit: number;
  tpm_limit: number;
  max_parallel_requests: number;
  budget: number;
  budget_period: BudgetPeriod;
}

/** True when any limit is set. */
export function hasLimits(limits: LimitFields, modelLimits: ModelLimits = {}): boolean {
  return (
    limits.rpm_limit > 0 ||
    limits.tpm_limit > 0 ||
    limits.max_parallel_requests > 0 ||
    (limits.budget > 0 && limits.budget_period !== '') ||
    Object.keys(modelLimits).length > 0
  );
}
