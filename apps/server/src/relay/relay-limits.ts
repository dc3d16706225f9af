import type { FastifyReply } from 'fastify';
import { describeQuota } from '../users/register-user';
import type { CounterState } from '../limits/limit-counters';
import { planLimitChecks, type PlannedCheck } from '../limits/limit-plan';
import type { RelayJob } from './relay-job';
import { RelayError } from './relay-error';

/** OpenAI's reset format: "1s", "6m0s" (https://platform.openai.com/docs/guides/rate-limits#rate-limits-in-headers). */
export function formatReset(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (hours > 0) return `${hours}h${minutes}m${seconds % 60}s`;
  return minutes > 0 ? `${minutes}m${seconds % 60}s` : `${seconds}s`;
}

/**
 * The TPM estimate of a running request: the reservation in tokens at the model's price, without the
 * PreConsumedQuota floor — the prompt estimate plus max_tokens weighted by the completion ratio. Corrected to
 * the settled usage when the request finishes.
 */
function estimateTokens(job: RelayJob, reserved: number): number {
  const perToken = job.pricing.modelRatio * job.pricing.groupRatio;
  if (perToken <= 0) return 0;
  const preConsumed = Math.max(0, job.runtime.context.options.getNumber('PreConsumedQuota'));
  return Math.max(1, Math.ceil(reserved / perToken - preConsumed));
}

/** OpenAI's x-ratelimit-*-requests and -tokens trios, from the tightest RPM and TPM counter. */
function rateLimitHeaders(checks: readonly PlannedCheck[], counters: readonly CounterState[]) {
  const headers: Record<string, string> = {};
  for (const [kind, suffix] of [
    ['requests', 'requests'],
    ['tokens', 'tokens'],
  ] as const) {
    let tightest: { limit: number; remaining: number; ttlMs: number } | null = null;
    checks.forEach((check, index) => {
      if (check.kind !== kind) return;
      const remaining = Math.max(0, check.limit - counters[index].count);
      if (!tightest || remaining < tightest.remaining) {
        tightest = { limit: check.limit, remaining, ttlMs: counters[index].ttlMs };
      }
    });
    const found = tightest as { limit: number; remaining: number; ttlMs: number } | null;
    if (found) {
      headers[`x-ratelimit-limit-${suffix}`] = String(found.limit);
      headers[`x-ratelimit-remaining-${suffix}`] = String(found.remaining);
      headers[`x-ratelimit-reset-${suffix}`] = formatReset(found.ttlMs);
    }
  }
  return headers;
}

function describeRefusal(job: RelayJob, check: PlannedCheck, counter: CounterState): RelayError {
  const resetMs = Math.min(check.resetMs, counter.ttlMs);
  const headers = { 'retry-after': String(Math.max(1, Math.ceil(resetMs / 1000))) };
  const wait = `try again in ${formatReset(resetMs)}`;
  switch (check.kind) {
    case 'requests':
      return new RelayError(
        429,
        `${check.owner} of ${check.limit} requests per minute is reached: ${wait}`,
        'requests',
        'rate_limit_exceeded',
        null,
        headers,
      );
    case 'tokens':
      if (check.amount > check.limit) {
        return new RelayError(
          429,
          `This request counts about ${check.amount} tokens, more than ${check.owner.toLowerCase()} of ` +
            `${check.limit} tokens per minute: lower max_tokens or shorten the prompt`,
          'tokens',
          'rate_limit_exceeded',
          null,
          { 'x-should-retry': 'false' },
        );
      }
      return new RelayError(
        429,
        `${check.owner} of ${check.limit} tokens per minute is reached (${counter.count} used, this request ` +
          `counts about ${check.amount}): ${wait}`,
        'tokens',
        'rate_limit_exceeded',
        null,
        headers,
      );
    case 'parallel':
      return new RelayError(
        429,
        `${check.owner} of ${check.limit} parallel requests is reached: try again when one has finished`,
        'requests',
        'rate_limit_exceeded',
        null,
        { 'retry-after': '1' },
      );
    case 'budget': {
      const { context } = job.runtime;
      return new RelayError(
        429,
        `${check.owner.replace(' limit', ' budget')} of ${describeQuota(context, check.limit)} for this period ` +
          `is spent (${describeQuota(context, counter.count)} used, this request reserves ` +
          `${describeQuota(context, check.amount)}): it resets in ${formatReset(resetMs)}`,
        'insufficient_quota',
        'budget_exceeded',
        null,
        { ...headers, 'x-should-retry': 'false' },
      );
    }
  }
}

/**
 * Before the reservation: the request must fit under every limit of its key and its owner (limits/limit-plan.ts),
 * counted atomically (in Redis when configured). Refused → a 429 with Retry-After, nothing reserved or charged.
 * Admitted → the rate-limit headers go on the answer, and the job holds what it counted until finishRelayJob.
 */
export async function admitRelayJob(job: RelayJob, reply: FastifyReply, reserved: number): Promise<void> {
  const { caller } = job;
  const checks = planLimitChecks(caller.tokenId, caller.userId, caller.limits, {
    model: job.model,
    estimatedTokens: estimateTokens(job, reserved),
    reserved,
  });
  if (checks.length === 0) return;
  const counters = job.runtime.context.auth.limitCounters;
  const result = await counters.admit(checks);
  if (!result.isAdmitted) {
    const check = checks[result.refusedIndex];
    const states = checks.map((_, index) =>
      index === result.refusedIndex ? { ...result.counter, count: check.limit } : { count: 0, ttlMs: 0 },
    );
    const refusal = describeRefusal(job, check, result.counter);
    Object.assign(refusal.headers, rateLimitHeaders([check], [states[result.refusedIndex]]));
    throw refusal;
  }
  reply.headers(rateLimitHeaders(checks, result.counters));
  job.limits = {
    async release(billed) {
      const settledTokens = billed ? billed.usage.promptTokens + billed.usage.completionTokens : 0;
      const cost = billed ? billed.cost : 0;
      for (const check of checks) {
        const delta =
          check.kind === 'parallel'
            ? -1
            : check.kind === 'tokens'
              ? settledTokens - check.amount
              : check.kind === 'budget'
                ? cost - check.amount
                : 0;
        if (delta === 0) continue;
        try {
          await counters.adjust(check.key, delta);
        } catch (error) {
          job.runtime.log.warn({ err: error, counter: check.key }, 'limit counter not corrected');
        }
      }
    },
  };
}
