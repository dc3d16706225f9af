import type { TokenUsage } from '../../canonical/translation';
import type { SparkUsage } from './spark-wire-types';

const count = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : null;

/**
 * The last frame's usage.text as billed tokens: prompt_tokens (the whole input, history included — what
 * iFlytek charges, not question_tokens, the last question alone) and completion_tokens. Null without counts.
 */
export function convertSparkUsage(usage: SparkUsage | null | undefined): TokenUsage | null {
  if (!usage) return null;
  const prompt = count(usage.prompt_tokens);
  const completion = count(usage.completion_tokens);
  const total = count(usage.total_tokens);
  if (prompt === null && completion === null)
    return total === null ? null : { promptTokens: total, completionTokens: 0 };
  return {
    promptTokens: prompt ?? Math.max(0, (total ?? 0) - (completion ?? 0)),
    completionTokens: completion ?? Math.max(0, (total ?? 0) - (prompt ?? 0)),
  };
}
