import type { ChatRequest } from '../../canonical/chat';
import {
  UnsupportedOptionError,
  type CanonicalChatInput,
  type UpstreamHttpRequest,
} from '../../canonical/translation';
import { getAnthropicModelTraits } from './anthropic-model-traits';
import type { AnthropicMessagesRequest } from './anthropic-wire-types';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages';
import { convertToAnthropicOutputFormat } from './convert-to-anthropic-output-format';
import { convertToAnthropicSampling } from './convert-to-anthropic-sampling';
import { convertToAnthropicThinking } from './convert-to-anthropic-thinking';
import { convertToAnthropicToolChoice, convertToAnthropicTools } from './convert-to-anthropic-tools';

/**
 * The API version the translated body is written for, whatever version the client named: version 2026-10-21
 * refuses temperature, top_p and top_k (https://docs.anthropic.com/en/api/versioning), which OpenAI clients send.
 */
export const ANTHROPIC_VERSION = '2023-06-01';

function refuseWhatAnthropicCannotDo(request: ChatRequest): void {
  if (request.n !== undefined && request.n > 1) throw new UnsupportedOptionError('Anthropic', 'n > 1');
  if (request.logprobs === true || request.top_logprobs !== undefined) {
    throw new UnsupportedOptionError('Anthropic', 'logprobs');
  }
}

function convertStop(stop: ChatRequest['stop']): string[] {
  return (typeof stop === 'string' ? [stop] : (stop ?? [])).filter((sequence) => sequence !== '');
}

/**
 * A canonical chat request as the body of Anthropic's `POST /v1/messages`
 * (https://docs.anthropic.com/en/api/messages). Fields Anthropic has no counterpart for and that do not change
 * what the answer looks like (seed, presence and frequency penalties, logit_bias, unknown fields) are left
 * out; options whose absence a client would notice (n > 1, logprobs, audio input) are refused. What differs
 * between Claude generations (thinking modes, sampling, structured outputs) follows the model's traits.
 */
export function convertToAnthropicRequest(input: CanonicalChatInput): AnthropicMessagesRequest {
  const { request, upstreamModel } = input;
  refuseWhatAnthropicCannotDo(request);
  const traits = getAnthropicModelTraits(upstreamModel);
  const { system, messages } = convertToAnthropicMessages(request.messages);
  const format = convertToAnthropicOutputFormat(request.response_format, traits, system);
  const limits = convertToAnthropicThinking(request, upstreamModel, traits, messages);
  const tools = convertToAnthropicTools(request.tools, traits);
  const toolChoice = convertToAnthropicToolChoice(request, tools.length > 0);
  const stopSequences = convertStop(request.stop);
  const outputConfig = { ...(format ? { format } : {}), ...(limits.effort ? { effort: limits.effort } : {}) };
  return {
    model: upstreamModel,
    max_tokens: limits.max_tokens,
    ...(system.length > 0 ? { system } : {}),
    messages,
    ...(limits.thinking ? { thinking: limits.thinking } : {}),
    ...convertToAnthropicSampling(request, traits, limits.thinking !== undefined),
    ...(stopSequences.length > 0 ? { stop_sequences: stopSequences } : {}),
    ...(tools.length > 0 ? { tools } : {}),
    ...(toolChoice ? { tool_choice: toolChoice } : {}),
    ...(format || limits.effort ? { output_config: outputConfig } : {}),
    ...(typeof request.user === 'string' && request.user !== ''
      ? { metadata: { user_id: request.user } }
      : {}),
    ...(input.isStream ? { stream: true } : {}),
  };
}

/** `{base}/v1/messages`, also when the channel's base URL already ends with /v1. */
export function buildAnthropicUrl(baseUrl: string): string {
  return baseUrl.endsWith('/v1') ? `${baseUrl}/messages` : `${baseUrl}/v1/messages`;
}

/**
 * The HTTP request: the key in x-api-key, and the client's anthropic-beta when it sent one (betas such as a
 * longer context window are switched on that way).
 */
export function buildAnthropicHttpRequest(input: CanonicalChatInput): UpstreamHttpRequest {
  const { channel, clientHeaders } = input;
  const beta = clientHeaders['anthropic-beta'];
  return {
    url: buildAnthropicUrl(channel.baseUrl),
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': channel.key,
      'anthropic-version': ANTHROPIC_VERSION,
      ...(beta ? { 'anthropic-beta': beta } : {}),
    },
    body: JSON.stringify(convertToAnthropicRequest(input)),
  };
}
