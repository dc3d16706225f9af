import type { CanonicalChatInput, TranslatorChannel, UpstreamHttpRequest } from '../../canonical/translation';
import { isDashScopeVisionModel } from './dashscope-model-traits';
import { convertToDashScopeRequest } from './convert-to-dashscope-request';

const TEXT_PATH = '/api/v1/services/aigc/text-generation/generation';
const MULTIMODAL_PATH = '/api/v1/services/aigc/multimodal-generation/generation';

/**
 * The headers of every DashScope call: the bearer API key, and the channel's "plugin" field (`other`) as
 * X-DashScope-Plugin, the header through which DashScope enables its plugins (a JSON object such as
 * `{"pdf_extracter":{}}`), sent only when set.
 */
export function buildDashScopeHeaders(channel: TranslatorChannel): Record<string, string> {
  const plugin = channel.other.trim();
  return {
    authorization: `Bearer ${channel.key}`,
    'content-type': 'application/json',
    ...(plugin ? { 'x-dashscope-plugin': plugin } : {}),
  };
}

/** A canonical chat request → the call of the model's endpoint; streams ask for SSE with X-DashScope-SSE. */
export function buildDashScopeRequest(input: CanonicalChatInput): UpstreamHttpRequest {
  const body = convertToDashScopeRequest(input.request, input.upstreamModel, input.isStream);
  const path = isDashScopeVisionModel(body.model) ? MULTIMODAL_PATH : TEXT_PATH;
  return {
    url: `${input.channel.baseUrl}${path}`,
    headers: {
      ...buildDashScopeHeaders(input.channel),
      ...(input.isStream ? { 'x-dashscope-sse': 'enable', accept: 'text/event-stream' } : {}),
    },
    body: JSON.stringify(body),
  };
}
