/** Claude 3 Opus, Sonnet and Haiku, Claude 2 and Instant write at most 4,096 tokens per answer. */
const LEGACY_MODEL = /claude-(instant|2|3-(opus|sonnet|haiku))/;

/**
 * The max_tokens sent when the client gave none: Anthropic requires the field, OpenAI clients often leave it
 * out. 8,192 is accepted by every Claude model since 3.5 (4,096 for the older ones, their ceiling). It is not
 * the model's own ceiling (32k–128k on Claude 4 models) on purpose: Anthropic counts max_tokens against the
 * channel's output-tokens-per-minute limit when a request starts
 * (https://docs.anthropic.com/en/api/rate-limits), so a huge default would throttle a channel for tokens that
 * are rarely written. A client that wants longer answers asks for them with max_completion_tokens.
 */
export function getAnthropicDefaultMaxTokens(model: string): number {
  return LEGACY_MODEL.test(model) ? 4096 : 8192;
}
