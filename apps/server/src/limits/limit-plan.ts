import type { LimitFields } from '@gatehouse/shared';
import type { CallerLimits } from './caller-limits';
import type { LimitCheck } from './limit-counters';
import { currentBudgetPeriod, currentMinute } from './limit-periods';

/** Which limit a check enforces: the header trio it feeds and the refusal it answers. */
export type LimitKind = 'requests' | 'tokens' | 'parallel' | 'budget';

export interface PlannedCheck extends LimitCheck {
  kind: LimitKind;
  /** names the limit in a refusal: "This API key's limit" / "Your account's limit" / "… for gpt-4o" */
  owner: string;
  /** until the window or period ends (a budget counter outlives its period, so its TTL is not this) */
  resetMs: number;
}

/** A parallel slot lives this long without a release: only a node that died mid-request leaves one behind. */
export const PARALLEL_SLOT_TTL_MS = 10 * 60_000;

/** Budget counters outlive their period by a day, so a late settlement still finds its counter. */
const BUDGET_GRACE_MS = 24 * 60 * 60_000;

export interface LimitAmounts {
  model: string;
  /** tokens the request is expected to use: counted against TPM until its usage is settled */
  estimatedTokens: number;
  /** quota held by the reservation: counted against the budget until the cost is settled */
  reserved: number;
  now?: number;
}

function planSubject(
  subject: string,
  owner: string,
  limits: LimitFields,
  amounts: LimitAmounts,
  now: number,
): PlannedCheck[] {
  const minute = currentMinute(now);
  const checks: PlannedCheck[] = [];
  if (limits.rpm_limit > 0) {
    checks.push({
      kind: 'requests',
      owner,
      key: `rpm:${subject}:${minute.id}`,
      amount: 1,
      limit: limits.rpm_limit,
      ttlMs: minute.remainingMs,
      resetMs: minute.remainingMs,
    });
  }
  if (limits.tpm_limit > 0) {
    checks.push({
      kind: 'tokens',
      owner,
      key: `tpm:${subject}:${minute.id}`,
      amount: amounts.estimatedTokens,
      limit: limits.tpm_limit,
      ttlMs: minute.remainingMs,
      resetMs: minute.remainingMs,
    });
  }
  if (limits.max_parallel_requests > 0) {
    checks.push({
      kind: 'parallel',
      owner,
      key: `parallel:${subject}`,
      amount: 1,
      limit: limits.max_parallel_requests,
      ttlMs: PARALLEL_SLOT_TTL_MS,
      resetMs: 1000,
      isRenewed: true,
    });
  }
  if (limits.budget > 0 && limits.budget_period !== '') {
    const period = currentBudgetPeriod(limits.budget_period, now);
    checks.push({
      kind: 'budget',
      owner,
      key: `budget:${subject}:${limits.budget_period}:${period.id}`,
      amount: amounts.reserved,
      limit: limits.budget,
      ttlMs: period.remainingMs + BUDGET_GRACE_MS,
      resetMs: period.remainingMs,
    });
  }
  return checks;
}

/**
 * Every counter one relay request must fit under: the key's limits, the key's override for the model (its own
 * counters, so a lower RPM for one model leaves the key's other models alone), and the owner's limits across
 * all their keys. Admitted only when all of them fit.
 */
export function planLimitChecks(
  tokenId: number,
  userId: number,
  limits: CallerLimits,
  amounts: LimitAmounts,
): PlannedCheck[] {
  const now = amounts.now ?? Date.now();
  const override = limits.modelLimits[amounts.model];
  const modelChecks = override
    ? planSubject(
        `token:${tokenId}:model:${amounts.model}`,
        `This API key's limit for ${amounts.model}`,
        {
          rpm_limit: override.rpm_limit ?? 0,
          tpm_limit: override.tpm_limit ?? 0,
          max_parallel_requests: 0,
          budget: 0,
          budget_period: '',
        },
        amounts,
        now,
      )
    : [];
  return [
    ...planSubject(`token:${tokenId}`, "This API key's limit", limits.token, amounts, now),
    ...modelChecks,
    ...planSubject(`user:${userId}`, "Your account's limit", limits.user, amounts, now),
  ];
}
