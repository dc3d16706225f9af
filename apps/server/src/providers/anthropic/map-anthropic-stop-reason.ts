import type { FinishReason } from '../../canonical/chat';

/**
 * Anthropic's stop_reason as OpenAI's finish_reason
 * (https://docs.anthropic.com/en/api/handling-stop-reasons). pause_turn (a server tool paused a long turn) ends
 * the answer as it stands; a reason Anthropic adds later reads as a normal stop.
 */
export function mapAnthropicStopReason(stopReason: unknown): FinishReason {
  switch (stopReason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      return 'stop';
  }
}
