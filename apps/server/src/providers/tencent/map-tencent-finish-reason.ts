import type { FinishReason } from '../../canonical/chat';

/**
 * Hunyuan's FinishReason: `stop`, `length`, `tool_calls`, and `sensitive` when its safety review stopped the
 * answer; '' (or absent) while a stream goes on.
 */
export function mapTencentFinishReason(reason: string | undefined): FinishReason | null {
  if (!reason) return null;
  if (reason === 'sensitive') return 'content_filter';
  if (reason === 'length' || reason === 'tool_calls') return reason;
  return 'stop';
}
