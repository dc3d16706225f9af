import type { ChatUsage } from '../../canonical/chat';
import type { TokenUsage } from '../../canonical/translation';
import type { GeminiModalityTokenCount } from './gemini-wire-types';

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : null;
}

/**
 * Gemini's usageMetadata (https://ai.google.dev/api/generate-content#UsageMetadata) as billed tokens, or null
 * when it carries no counts.
 * - prompt = promptTokenCount + toolUsePromptTokenCount: what Google's tools (search, code execution) fed back
 *   to the model is input billed at the input price.
 * - completion = candidatesTokenCount + thoughtsTokenCount: thinking is billed as output, and Gemini counts it
 *   apart from the candidates (unlike OpenAI, whose completion_tokens include reasoning).
 * - cacheRead = cachedContentTokenCount, which promptTokenCount already includes.
 * - audio / image input = the AUDIO / IMAGE entries of promptTokensDetails less those of cacheTokensDetails
 *   (cached media is already counted as a cache read); VIDEO and TEXT stay plain input, which Gemini prices
 *   alike. Audio / image output = the AUDIO / IMAGE entries of candidatesTokensDetails.
 * A blocked prompt reports only promptTokenCount (and the total); the missing counts are 0.
 */
export function convertGeminiUsage(metadata: unknown): TokenUsage | null {
  if (typeof metadata !== 'object' || metadata === null) return null;
  const fields = metadata as Record<string, unknown>;
  const prompt = count(fields.promptTokenCount);
  const candidates = count(fields.candidatesTokenCount);
  const thoughts = count(fields.thoughtsTokenCount);
  const toolUse = count(fields.toolUsePromptTokenCount) ?? 0;
  const total = count(fields.totalTokenCount);
  if (prompt === null && candidates === null && thoughts === null && total === null) return null;
  const completionTokens = (candidates ?? 0) + (thoughts ?? 0);
  const promptTokens = prompt === null ? Math.max(0, (total ?? 0) - completionTokens) : prompt + toolUse;
  const usage: TokenUsage = { promptTokens, completionTokens };
  const cached = count(fields.cachedContentTokenCount);
  if (cached) usage.cacheReadTokens = cached;
  if (thoughts) usage.reasoningTokens = thoughts;
  const prompted = (modality: string) =>
    Math.max(
      0,
      (modalityCount(fields.promptTokensDetails, modality) ?? 0) -
        (modalityCount(fields.cacheTokensDetails, modality) ?? 0),
    );
  const audioInput = prompted('AUDIO');
  const imageInput = prompted('IMAGE');
  const audioOutput = modalityCount(fields.candidatesTokensDetails, 'AUDIO');
  const imageOutput = modalityCount(fields.candidatesTokensDetails, 'IMAGE');
  if (audioInput) usage.audioInputTokens = audioInput;
  if (imageInput) usage.imageInputTokens = imageInput;
  if (audioOutput) usage.audioOutputTokens = audioOutput;
  if (imageOutput) usage.imageOutputTokens = imageOutput;
  return usage;
}

function modalityCount(details: unknown, modality: string): number | undefined {
  if (!Array.isArray(details)) return undefined;
  const found = (details as GeminiModalityTokenCount[]).find((entry) => entry?.modality === modality);
  return count(found?.tokenCount) ?? undefined;
}

/** The same counts as OpenAI's usage object, with the cache, reasoning, audio and image details. */
export function convertGeminiChatUsage(metadata: unknown): ChatUsage | undefined {
  const usage = convertGeminiUsage(metadata);
  if (!usage) return undefined;
  const promptDetails = (metadata as { promptTokensDetails?: unknown }).promptTokensDetails;
  const chatUsage: ChatUsage = {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
  };
  const details = {
    cached_tokens: usage.cacheReadTokens,
    audio_tokens: modalityCount(promptDetails, 'AUDIO'),
    image_tokens: modalityCount(promptDetails, 'IMAGE'),
  };
  if (Object.values(details).some((value) => value !== undefined))
    chatUsage.prompt_tokens_details = Object.fromEntries(
      Object.entries(details).filter(([, value]) => value !== undefined),
    );
  if (usage.reasoningTokens)
    chatUsage.completion_tokens_details = { reasoning_tokens: usage.reasoningTokens };
  return chatUsage;
}
