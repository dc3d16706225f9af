import type { ChatUsage } from './chat';
import type { TokenUsage } from './translation';

/** Billed token counts as OpenAI's usage object, with the cache and reasoning details when there are any. */
export function convertToChatUsage(usage: TokenUsage): ChatUsage {
  const chatUsage: ChatUsage = {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
  };
  if (usage.cacheReadTokens !== undefined || usage.cacheWriteTokens !== undefined) {
    chatUsage.prompt_tokens_details = {
      cached_tokens: usage.cacheReadTokens ?? 0,
      ...(usage.cacheWriteTokens !== undefined ? { cache_creation_tokens: usage.cacheWriteTokens } : {}),
    };
  }
  if (usage.reasoningTokens !== undefined) {
    chatUsage.completion_tokens_details = { reasoning_tokens: usage.reasoningTokens };
  }
  return chatUsage;
}
