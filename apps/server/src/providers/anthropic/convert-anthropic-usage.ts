import type { ChatUsage } from '../../canonical/chat';
import type { TokenUsage } from '../../canonical/translation';

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null;

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}

/**
 * An Anthropic `usage` object as billed tokens, or null when it is not one. Anthropic's input_tokens counts
 * only the input after the last cache breakpoint; the whole input is input_tokens +
 * cache_creation_input_tokens + cache_read_input_tokens
 * (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching#tracking-cache-performance), and that
 * whole is promptTokens, with the cache reads and writes as its parts. Thinking is part of output_tokens.
 */
export function convertAnthropicUsage(usage: unknown): TokenUsage | null {
  if (!isObject(usage) || (usage.input_tokens === undefined && usage.output_tokens === undefined))
    return null;
  const cacheWriteTokens = count(usage.cache_creation_input_tokens);
  const cacheReadTokens = count(usage.cache_read_input_tokens);
  const details = usage.output_tokens_details;
  const reasoningTokens = isObject(details) ? count(details.thinking_tokens) : 0;
  return {
    promptTokens: count(usage.input_tokens) + cacheWriteTokens + cacheReadTokens,
    completionTokens: count(usage.output_tokens),
    ...(cacheReadTokens > 0 ? { cacheReadTokens } : {}),
    ...(cacheWriteTokens > 0 ? { cacheWriteTokens } : {}),
    ...(reasoningTokens > 0 ? { reasoningTokens } : {}),
  };
}

/** Billed tokens in OpenAI's usage shape, with the cache counts as prompt token details. */
export function convertToChatUsage(usage: TokenUsage): ChatUsage {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
    prompt_tokens_details: {
      cached_tokens: usage.cacheReadTokens ?? 0,
      cache_creation_tokens: usage.cacheWriteTokens ?? 0,
    },
    ...(usage.reasoningTokens !== undefined
      ? { completion_tokens_details: { reasoning_tokens: usage.reasoningTokens } }
      : {}),
  };
}

/**
 * A stream's usage so far: message_start carries the input counts, each message_delta cumulative counts
 * (https://docs.anthropic.com/en/docs/build-with-claude/streaming#event-types) in which the input ones may be
 * null; what a later event does not say is kept.
 */
export function mergeAnthropicUsage(known: Fields | null, update: unknown): Fields | null {
  if (!isObject(update)) return known;
  const merged: Fields = { ...known };
  for (const [field, value] of Object.entries(update)) {
    if (value !== null && value !== undefined) merged[field] = value;
  }
  return merged;
}
