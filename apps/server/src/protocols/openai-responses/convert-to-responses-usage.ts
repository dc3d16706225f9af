import type { ChatUsage } from '../../canonical/chat';
import type { ResponsesUsage } from './responses-types';

/**
 * Chat usage in the Responses API's words (https://platform.openai.com/docs/api-reference/responses/object →
 * usage): input and output tokens, cached and cache-written input tokens (parts of input_tokens) and
 * reasoning tokens (part of output_tokens).
 */
export function convertToResponsesUsage(usage: ChatUsage): ResponsesUsage {
  return {
    input_tokens: usage.prompt_tokens,
    input_tokens_details: {
      cached_tokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
      cache_write_tokens: usage.prompt_tokens_details?.cache_creation_tokens ?? 0,
    },
    output_tokens: usage.completion_tokens,
    output_tokens_details: { reasoning_tokens: usage.completion_tokens_details?.reasoning_tokens ?? 0 },
    total_tokens: usage.total_tokens || usage.prompt_tokens + usage.completion_tokens,
  };
}
