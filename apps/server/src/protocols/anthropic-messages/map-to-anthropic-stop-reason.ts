import type { FinishReason } from '../../canonical/chat';
import type { AnthropicStopReason } from '../../providers/anthropic/anthropic-wire-types';

/**
 * OpenAI's finish_reason as Anthropic's stop_reason (https://docs.anthropic.com/en/api/handling-stop-reasons).
 * Canonical answers do not say whether a stop sequence ended the text, so a stop is end_turn. Some
 * OpenAI-compatible servers end an answer with tool calls as `stop`: it is tool_use all the same, since an
 * Anthropic client runs the tools only when stop_reason says so.
 */
export function mapToAnthropicStopReason(
  finishReason: FinishReason | null,
  hasToolCalls: boolean,
): AnthropicStopReason {
  if (hasToolCalls && (finishReason === 'stop' || finishReason === null)) return 'tool_use';
  switch (finishReason) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    default:
      return 'end_turn';
  }
}
