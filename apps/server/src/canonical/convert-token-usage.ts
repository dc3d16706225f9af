import type { ChatUsage } from './chat';
import type { TokenUsage } from './translation';

/**
 * Billed token counts as OpenAI's usage object, with the cache, reasoning, audio and image details when there
 * are any.
 */
export function convertToChatUsage(usage: TokenUsage): ChatUsage {
  const chatUsage: ChatUsage = {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
  };
  if (
    usage.cacheReadTokens !== undefined ||
    usage.cacheWriteTokens !== undefined ||
    usage.audioInputTokens !== undefined ||
    usage.imageInputTokens !== undefined
  ) {
    chatUsage.prompt_tokens_details = {
      cached_tokens: usage.cacheReadTokens ?? 0,
      ...(usage.cacheWriteTokens !== undefined ? { cache_creation_tokens: usage.cacheWriteTokens } : {}),
      ...(usage.audioInputTokens !== undefined ? { audio_tokens: usage.audioInputTokens } : {}),
      ...(usage.imageInputTokens !== undefined ? { image_tokens: usage.imageInputTokens } : {}),
    };
  }
  if (
    usage.reasoningTokens !== undefined ||
    usage.audioOutputTokens !== undefined ||
    usage.imageOutputTokens !== undefined
  ) {
    chatUsage.completion_tokens_details = {
      ...(usage.reasoningTokens !== undefined ? { reasoning_tokens: usage.reasoningTokens } : {}),
      ...(usage.audioOutputTokens !== undefined ? { audio_tokens: usage.audioOutputTokens } : {}),
      ...(usage.imageOutputTokens !== undefined ? { image_tokens: usage.imageOutputTokens } : {}),
    };
  }
  return chatUsage;
}
