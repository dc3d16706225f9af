import type { LimitFields, ModelLimits } from '@gatehouse/shared';

/** The limits a relay request is held to: its key's, the key's override for the model, and its owner's. */
export interface CallerLimits {
  token: LimitFields;
  user: LimitFields;
  modelLimits: ModelLimits;
}

const UNLIMITED: LimitFields = {
  rpm_limit: 0,
  tpm_limit: 0,
  max_parallel_requests: 0,
  budget: 0,
  budget_period: '',
};

/** A caller held to no limit (tests, internal calls). */
export const NO_CALLER_LIMITS: CallerLimits = { token: UNLIMITED, user: UNLIMITED, modelLimits: {} };
