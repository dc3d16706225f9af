import type { TokenUsage } from '../../canonical/translation';
import type { CozeUsage } from './coze-wire-types';

const count = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : null;

/**
 * A chat's usage (conversation.chat.completed) as billed tokens: input_count and output_count, or the
 * token_count total as input when only it is given. Null when there is no count, or all are zero (Coze sends
 * zeros before the chat is done).
 */
export function convertCozeUsage(usage: CozeUsage | null | undefined): TokenUsage | null {
  if (!usage) return null;
  const input = count(usage.input_count);
  const output = count(usage.output_count);
  const total = count(usage.token_count);
  if (input === null && output === null) return total ? { promptTokens: total, completionTokens: 0 } : null;
  if (!input && !output && !total) return null;
  return { promptTokens: input ?? Math.max(0, (total ?? 0) - (output ?? 0)), completionTokens: output ?? 0 };
}
