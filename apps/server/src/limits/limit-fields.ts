import { BUDGET_PERIODS, type BudgetPeriod, type LimitFields } from '@gatehouse/shared';

interface LimitColumns {
  rpm_limit: number;
  tpm_limit: number;
  max_parallel_requests: number;
  budget: number | string | bigint;
  budget_period: string;
}

const isBudgetPeriod = (value: string): value is BudgetPeriod =>
  (BUDGET_PERIODS as readonly string[]).includes(value);

/** A key's or user's limit columns as the API answers them (bigint budgets arrive as text on PostgreSQL). */
export function readLimitFields(row: LimitColumns): LimitFields {
  return {
    rpm_limit: Number(row.rpm_limit),
    tpm_limit: Number(row.tpm_limit),
    max_parallel_requests: Number(row.max_parallel_requests),
    budget: Number(row.budget),
    budget_period: isBudgetPeriod(row.budget_period) ? row.budget_period : '',
  };
}
