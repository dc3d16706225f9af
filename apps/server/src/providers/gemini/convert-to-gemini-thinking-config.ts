import type { ChatRequest } from '../../canonical/chat';
import type { GeminiThinkingConfig, GeminiThinkingLevel } from './gemini-wire-types';

/** Gemini 3 and later think by level and validate thought signatures strictly; 2.x think by token budget. */
export function isGemini3OrLater(model: string): boolean {
  const major = /gemini-(\d+)/.exec(model)?.[1];
  return major !== undefined && Number(major) >= 3;
}

type Effort = NonNullable<ChatRequest['reasoning_effort']>;

/**
 * OpenAI's reasoning_effort on 2.x as token budgets, as Google's own OpenAI compatibility layer maps them
 * (https://ai.google.dev/gemini-api/docs/openai); on Gemini 3 as the two levels every Gemini 3 model accepts
 * (MINIMAL and MEDIUM are refused by the Pro models: https://ai.google.dev/gemini-api/docs/thinking).
 */
const budgetByEffort: Record<Effort, number> = { minimal: 1024, low: 1024, medium: 8192, high: 24576 };
const levelByEffort: Record<Effort, GeminiThinkingLevel> = {
  minimal: 'LOW',
  low: 'LOW',
  medium: 'HIGH',
  high: 'HIGH',
};

/**
 * The client's thinking request as Gemini's thinkingConfig (https://ai.google.dev/gemini-api/docs/thinking);
 * undefined leaves the model's default (dynamic thinking, no thought summaries).
 * - `thinking.budget_tokens` → thinkingBudget (Gemini 3 still accepts budgets), with thought summaries.
 * - `thinking: disabled` → thinkingBudget 0 on 2.x; Gemini 3 cannot stop thinking, so its lowest level, LOW.
 * - `reasoning_effort` (when no `thinking`) → the budget or level above, with thought summaries.
 */
export function convertToGeminiThinkingConfig(
  request: ChatRequest,
  upstreamModel: string,
): GeminiThinkingConfig | undefined {
  const isLevelled = isGemini3OrLater(upstreamModel);
  const { thinking, reasoning_effort: effort } = request;
  if (thinking?.type === 'disabled') return isLevelled ? { thinkingLevel: 'LOW' } : { thinkingBudget: 0 };
  if (thinking?.type === 'enabled') return { thinkingBudget: thinking.budget_tokens, includeThoughts: true };
  if (effort && effort in budgetByEffort) {
    return isLevelled
      ? { thinkingLevel: levelByEffort[effort], includeThoughts: true }
      : { thinkingBudget: budgetByEffort[effort], includeThoughts: true };
  }
  return undefined;
}
