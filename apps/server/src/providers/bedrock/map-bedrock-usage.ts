import type { ChatUsage } from '../../canonical/chat';
import type { TokenUsage } from '../../canonical/translation';

const count = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : null;

/**
 * Bedrock's TokenUsage → the tokens billed. Bedrock's inputTokens counts only the input neither read from nor
 * written to the prompt cache (the cache counts come beside it, as Anthropic's input_tokens does), so the
 * prompt is inputTokens + cacheReadInputTokens + cacheWriteInputTokens (https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html: tokens
 * neither read from nor written to the cache are charged at the standard input rate). Bedrock does not report
 * thinking tokens apart from outputTokens. Null when the usage is missing or not numbers.
 */
export function mapBedrockUsage(usage: unknown): TokenUsage | null {
  if (typeof usage !== 'object' || usage === null) return null;
  const fields = usage as Record<string, unknown>;
  const input = count(fields.inputTokens);
  const output = count(fields.outputTokens);
  if (input === null || output === null) return null;
  const cacheRead = count(fields.cacheReadInputTokens) ?? 0;
  const cacheWrite = count(fields.cacheWriteInputTokens) ?? 0;
  return {
    promptTokens: input + cacheRead + cacheWrite,
    completionTokens: output,
    ...(cacheRead > 0 ? { cacheReadTokens: cacheRead } : {}),
    ...(cacheWrite > 0 ? { cacheWriteTokens: cacheWrite } : {}),
  };
}

/** The billed tokens as OpenAI's usage object, for the canonical answer. */
export function toChatUsage(usage: TokenUsage): ChatUsage {
  const details = {
    ...(usage.cacheReadTokens ? { cached_tokens: usage.cacheReadTokens } : {}),
    ...(usage.cacheWriteTokens ? { cache_creation_tokens: usage.cacheWriteTokens } : {}),
  };
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
    ...(Object.keys(details).length > 0 ? { prompt_tokens_details: details } : {}),
  };
}
