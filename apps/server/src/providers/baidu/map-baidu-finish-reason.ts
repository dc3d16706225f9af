import type { FinishReason } from '../../canonical/chat';

/**
 * ERNIE's finish_reason: `normal` and `stop` end the answer as the model chose, `length` at
 * max_output_tokens, `content_filter` when Baidu's safety check cut it, `function_call` with a call.
 */
export function mapBaiduFinishReason(reason: string | undefined, hasFunctionCall: boolean): FinishReason {
  if (hasFunctionCall || reason === 'function_call') return 'tool_calls';
  if (reason === 'length') return 'length';
  if (reason === 'content_filter') return 'content_filter';
  return 'stop';
}
