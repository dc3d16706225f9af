import type { FinishReason } from '../../canonical/chat';

/**
 * DashScope's finish_reason: `stop`, `length`, `tool_calls`; while a stream goes on it is null or the text
 * "null" (https://help.aliyun.com/zh/model-studio/qwen-api-via-dashscope, finish_reason).
 */
export function mapDashScopeFinishReason(reason: string | null | undefined): FinishReason | null {
  if (!reason || reason === 'null') return null;
  if (reason === 'length' || reason === 'tool_calls' || reason === 'content_filter') return reason;
  return 'stop';
}
