import type { ChatRequest } from '../../canonical/chat';
import type { AnthropicModelTraits } from './anthropic-model-traits';
import type {
  AnthropicMessageParam,
  AnthropicOutputConfig,
  AnthropicThinkingConfig,
} from './anthropic-wire-types';
import { getAnthropicDefaultMaxTokens } from './anthropic-default-max-tokens';

/** Anthropic's smallest budget: https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking */
export const MIN_THINKING_BUDGET = 1024;

/**
 * OpenAI's reasoning_effort as a thinking budget: low is Anthropic's minimum, high the size Anthropic's guide
 * suggests for complex tasks (16k and up), medium between. 'minimal' means no thinking. With adaptive thinking
 * the effort is sent as output_config.effort, and the budget only sizes the default max_tokens.
 */
export const REASONING_EFFORT_BUDGETS = { low: 1024, medium: 4096, high: 16384 } as const;

export interface AnthropicOutputLimits {
  max_tokens: number;
  thinking?: AnthropicThinkingConfig;
  effort?: AnthropicOutputConfig['effort'];
}

/**
 * The conversation is in the middle of a tool loop whose assistant turn carries no signed thinking (OpenAI
 * clients do not send reasoning back). Anthropic refuses thinking then: with thinking on, the assistant turn
 * that called the tools must start with its thinking block
 * (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#extended-thinking-with-tool-use).
 */
export function isUnsignedToolTurn(messages: AnthropicMessageParam[]): boolean {
  let index = messages.length - 1;
  const isToolResults = (message: AnthropicMessageParam) =>
    message.role === 'user' &&
    Array.isArray(message.content) &&
    message.content.every((block) => block.type === 'tool_result');
  while (index >= 0 && isToolResults(messages[index])) index -= 1;
  const assistant = messages[index];
  if (index === messages.length - 1 || assistant?.role !== 'assistant' || !Array.isArray(assistant.content)) {
    return false;
  }
  const [first] = assistant.content;
  return first?.type !== 'thinking' && first?.type !== 'redacted_thinking';
}

type ThinkingPlan =
  | { type: 'budget'; budget: number; isExplicit: boolean }
  | { type: 'adaptive'; effort?: 'low' | 'medium' | 'high'; headroom: number };

function planThinking(request: ChatRequest, traits: AnthropicModelTraits): ThinkingPlan | null {
  const { thinking } = request;
  if (thinking?.type === 'enabled') {
    // Adaptive-only models refuse budgets; adaptive thinking is the nearest thing to what the client asked.
    return traits.thinking === 'adaptive'
      ? { type: 'adaptive', headroom: thinking.budget_tokens }
      : { type: 'budget', budget: thinking.budget_tokens, isExplicit: true };
  }
  const effort = request.reasoning_effort;
  if (thinking?.type === 'disabled' || !effort || effort === 'minimal' || traits.thinking === 'none')
    return null;
  // Anthropic refuses thinking with a forced tool; the client's tool_choice wins over a reasoning hint.
  const choice = request.tool_choice;
  if (choice === 'required' || typeof choice === 'object') return null;
  const budget = REASONING_EFFORT_BUDGETS[effort];
  return traits.thinking === 'budget'
    ? { type: 'budget', budget, isExplicit: false }
    : { type: 'adaptive', effort, headroom: budget };
}

/**
 * max_tokens and thinking together, since thinking counts towards max_tokens.
 * - No limit asked: the default answer length plus the thinking budget (or, for adaptive thinking, the budget
 *   of the effort asked).
 * - A limit asked (max_completion_tokens, else max_tokens): it bounds thinking and answer together, as in
 *   OpenAI's API. A budget from reasoning_effort shrinks to leave at least 1,024 tokens for the answer, and
 *   thinking is left out when the limit cannot hold both. An explicit `thinking` is passed as the client
 *   wrote it, and Anthropic says so if it does not fit.
 * - Models that take adaptive thinking get it with output_config.effort instead of a budget; on the 4.6
 *   models, which take both, an explicit budget is still honoured.
 * - No thinking in a tool loop whose assistant turn has no signed thinking (isUnsignedToolTurn).
 */
export function convertToAnthropicThinking(
  request: ChatRequest,
  model: string,
  traits: AnthropicModelTraits,
  messages: AnthropicMessageParam[],
): AnthropicOutputLimits {
  const asked = request.max_completion_tokens ?? request.max_tokens;
  const defaultTokens = getAnthropicDefaultMaxTokens(model);
  const plan = isUnsignedToolTurn(messages) ? null : planThinking(request, traits);
  if (!plan) return { max_tokens: asked ?? defaultTokens };
  if (plan.type === 'adaptive') {
    return {
      max_tokens: asked ?? defaultTokens + plan.headroom,
      thinking: { type: 'adaptive' },
      ...(plan.effort ? { effort: plan.effort } : {}),
    };
  }
  if (asked === undefined) {
    return {
      max_tokens: defaultTokens + plan.budget,
      thinking: { type: 'enabled', budget_tokens: plan.budget },
    };
  }
  if (plan.isExplicit)
    return { max_tokens: asked, thinking: { type: 'enabled', budget_tokens: plan.budget } };
  const budget = Math.min(plan.budget, asked - MIN_THINKING_BUDGET);
  if (budget < MIN_THINKING_BUDGET) return { max_tokens: asked };
  return { max_tokens: asked, thinking: { type: 'enabled', budget_tokens: budget } };
}
