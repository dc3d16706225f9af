import type { TokenUsage } from '../../canonical/translation';
import type { CohereUsage } from './cohere-wire-types';

const count = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : null;

/**
 * Cohere's usage as billed tokens. `billed_units` is what Cohere charges for
 * (https://docs.cohere.com/docs/how-does-cohere-pricing-work); `tokens` also counts the prompt template Cohere
 * wraps around the messages, so it is read only when an answer has no billed units. `cached_tokens`, the prompt
 * tokens that hit Cohere's inference cache, are the cache reads, at most the billed prompt (they may count
 * template tokens the bill leaves out). Null when neither has a count.
 */
export function convertCohereUsage(usage: CohereUsage | null | undefined): TokenUsage | null {
  if (!usage) return null;
  for (const counts of [usage.billed_units, usage.tokens]) {
    const input = count(counts?.input_tokens);
    const output = count(counts?.output_tokens);
    if (input === null && output === null) continue;
    const promptTokens = input ?? 0;
    const cacheReadTokens = Math.min(count(usage.cached_tokens) ?? 0, promptTokens);
    return {
      promptTokens,
      completionTokens: output ?? 0,
      ...(cacheReadTokens > 0 ? { cacheReadTokens } : {}),
    };
  }
  return null;
}
