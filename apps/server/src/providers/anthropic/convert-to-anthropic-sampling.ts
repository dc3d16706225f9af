import type { ChatRequest } from '../../canonical/chat';
import type { AnthropicModelTraits } from './anthropic-model-traits';

export interface AnthropicSampling {
  temperature?: number;
  top_p?: number;
  top_k?: number;
}

/**
 * temperature, top_p and top_k as far as the model takes them, left out rather than failing the request:
 * - none on models that refuse them (Opus 4.7 and later);
 * - with thinking on, no temperature or top_k and top_p only from 0.95 up
 *   (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#feature-compatibility);
 * - on models that take only one of temperature and top_p, temperature (the one clients usually mean).
 */
export function convertToAnthropicSampling(
  request: Pick<ChatRequest, 'temperature' | 'top_p' | 'top_k'>,
  traits: AnthropicModelTraits,
  isThinking: boolean,
): AnthropicSampling {
  if (!traits.hasSampling) return {};
  const { temperature, top_p: topP, top_k: topK } = request;
  const hasTemperature = temperature !== undefined && !isThinking;
  const hasTopP =
    topP !== undefined && (!isThinking || topP >= 0.95) && !(traits.isOneSampler && hasTemperature);
  return {
    ...(hasTemperature ? { temperature } : {}),
    ...(hasTopP ? { top_p: topP } : {}),
    ...(topK !== undefined && !isThinking ? { top_k: topK } : {}),
  };
}
