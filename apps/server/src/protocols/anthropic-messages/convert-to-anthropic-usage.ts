import type { ChatUsage } from '../../canonical/chat';
import type { AnthropicUsage } from '../../providers/anthropic/anthropic-wire-types';

/**
 * OpenAI's usage as Anthropic's. OpenAI's prompt_tokens counts every input token; Anthropic's input_tokens
 * only those neither read from nor written to the cache, which are counted apart
 * (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching#tracking-cache-performance).
 */
export function convertToAnthropicUsage(usage: ChatUsage | null | undefined): AnthropicUsage {
  if (!usage) {
    return { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  }
  const cacheRead = usage.prompt_tokens_details?.cached_tokens ?? 0;
  const cacheWrite = usage.prompt_tokens_details?.cache_creation_tokens ?? 0;
  return {
    input_tokens: Math.max(0, usage.prompt_tokens - cacheRead - cacheWrite),
    output_tokens: usage.completion_tokens,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
  };
}
