import type { FinishReason } from '../../canonical/chat';

/**
 * Converse's stopReason → OpenAI's finish_reason
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_ResponseSyntax).
 * A guardrail or content filter is content_filter; running out of room, in the answer or the context window,
 * is length. Malformed output has no OpenAI word and ends as stop, like an unknown reason.
 */
export function mapBedrockStopReason(reason: string | undefined): FinishReason {
  switch (reason) {
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'guardrail_intervened':
    case 'content_filtered':
      return 'content_filter';
    default:
      return 'stop';
  }
}
