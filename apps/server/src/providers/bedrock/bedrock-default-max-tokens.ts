import type { ChatRequest } from '../../canonical/chat';
import { findBedrockModelVendor } from './bedrock-model-ids';

/** Claude 3 Opus, Sonnet and Haiku, Claude 2 and Instant write at most 4,096 tokens per answer. */
const LEGACY_CLAUDE = /claude-(instant|v2|3-(opus|sonnet|haiku))/;

/**
 * maxTokens for a Claude request that names none. Without it Bedrock uses the model's maximum (32k–128k on
 * Claude 4), and Bedrock deducts maxTokens from the account's tokens-per-minute quota when a request starts
 * (https://docs.aws.amazon.com/bedrock/latest/userguide/quotas-token-burndown.html), so one OpenAI client that
 * leaves it out would throttle the channel. 8,192 (4,096 for the older models, their ceiling), above the
 * thinking budget when there is one (Claude wants max tokens > budget_tokens). Other vendors' models keep
 * Bedrock's default. A client that wants longer answers asks with max_completion_tokens.
 */
export function findBedrockDefaultMaxTokens(request: ChatRequest, modelId: string): number | undefined {
  if (findBedrockModelVendor(modelId) !== 'anthropic') return undefined;
  const base = LEGACY_CLAUDE.test(modelId) ? 4096 : 8192;
  const budget = request.thinking?.type === 'enabled' ? request.thinking.budget_tokens : 0;
  return budget >= base ? budget + base : base;
}
