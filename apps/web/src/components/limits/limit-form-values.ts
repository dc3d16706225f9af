import { LIMIT_MAXIMUMS, type BudgetPeriod, type LimitFields } from '@gatehouse/shared';

/** The limit inputs as a form holds them: a cleared NumberInput answers ''. */
export interface LimitFormValues {
  rpm_limit: number | string;
  tpm_limit: number | string;
  max_parallel_requests: number | string;
  budget: number | string;
  budget_period: BudgetPeriod;
}

export const LIMIT_NUMBER_FIELDS = ['rpm_limit', 'tpm_limit', 'max_parallel_requests', 'budget'] as const;

export const toLimitFormValues = (limits: LimitFields): LimitFormValues => ({ ...limits });

/** Blank counts as 0 (unlimited). */
export function toLimitFields(values: LimitFormValues): LimitFields {
  const number = (value: number | string) => (value === '' ? 0 : Number(value));
  return {
    rpm_limit: number(values.rpm_limit),
    tpm_limit: number(values.tpm_limit),
    max_parallel_requests: number(values.max_parallel_requests),
    budget: number(values.budget),
    budget_period: values.budget_period,
  };
}

/** The i18n key of the first problem, or null; the server checks everything again. */
export function validateLimits(values: LimitFormValues): string | null {
  const fields = toLimitFields(values);
  for (const field of LIMIT_NUMBER_FIELDS) {
    const value = fields[field];
    if (!Number.isInteger(value) || value < 0 || value > LIMIT_MAXIMUMS[field]) return 'limits.invalidNumber';
  }
  if (fields.budget > 0 && fields.budget_period === '') return 'limits.budgetNeedsPeriod';
  return null;
}
