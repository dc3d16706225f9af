import type { TokenUsage } from '../provider-types';

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : null;
}

function detail(details: unknown, name: string): number | null {
  if (typeof details !== 'object' || details === null) return null;
  const value = count((details as Record<string, unknown>)[name]);
  return value === null || value === 0 ? null : value;
}

/**
 * The `usage` object of an OpenAI-format answer as billed tokens, or null when it carries no counts.
 * Chat and completions say prompt_tokens / completion_tokens; embeddings only prompt_tokens and total_tokens;
 * gpt-image-1 and gpt-4o-transcribe say input_tokens / output_tokens
 * (https://platform.openai.com/docs/api-reference/images/object). Whisper's `{type: "duration"}` has no
 * tokens and answers null, so the transcript is counted instead. Cached input and reasoning tokens come from
 * the details objects (https://platform.openai.com/docs/api-reference/chat/object#chat/object-usage); a zero
 * count is left out. Audio and image tokens come from the same objects: chat's prompt_tokens_details and
 * completion_tokens_details carry audio_tokens (and image_tokens where reported), gpt-image-1 says
 * input_tokens_details / output_tokens_details, and the transcription models (gpt-4o-transcribe,
 * gpt-4o-mini-transcribe) spell it input_token_details, singular
 * (https://platform.openai.com/docs/api-reference/audio/json-object).
 */
export function convertOpenAIUsage(usage: unknown): TokenUsage | null {
  if (typeof usage !== 'object' || usage === null) return null;
  const fields = usage as Record<string, unknown>;
  const prompt = count(fields.prompt_tokens) ?? count(fields.input_tokens);
  const completion = count(fields.completion_tokens) ?? count(fields.output_tokens);
  const total = count(fields.total_tokens);
  if (prompt === null && completion === null) {
    return total === null ? null : { promptTokens: total, completionTokens: 0 };
  }
  const promptTokens = prompt ?? Math.max(0, (total ?? 0) - (completion ?? 0));
  const completionTokens = completion ?? Math.max(0, (total ?? promptTokens) - promptTokens);
  const converted: TokenUsage = { promptTokens, completionTokens };
  const cacheRead = detail(fields.prompt_tokens_details, 'cached_tokens');
  const cacheWrite = detail(fields.prompt_tokens_details, 'cache_creation_tokens');
  const reasoning = detail(fields.completion_tokens_details, 'reasoning_tokens');
  if (cacheRead !== null) converted.cacheReadTokens = cacheRead;
  if (cacheWrite !== null) converted.cacheWriteTokens = cacheWrite;
  if (reasoning !== null) converted.reasoningTokens = reasoning;
  const input = fields.prompt_tokens_details ?? fields.input_tokens_details ?? fields.input_token_details;
  const output = fields.completion_tokens_details ?? fields.output_tokens_details;
  const media: [keyof TokenUsage, unknown, string][] = [
    ['audioInputTokens', input, 'audio_tokens'],
    ['imageInputTokens', input, 'image_tokens'],
    ['audioOutputTokens', output, 'audio_tokens'],
    ['imageOutputTokens', output, 'image_tokens'],
  ];
  for (const [field, details, name] of media) {
    const value = detail(details, name);
    if (value !== null) converted[field] = value;
  }
  return converted;
}
