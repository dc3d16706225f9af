import type { CanonicalChatInput, UpstreamHttpRequest } from '../../canonical/translation';
import type { AnthropicMessagesRequest } from '../anthropic/anthropic-wire-types';
import { convertToAnthropicRequest } from '../anthropic/convert-to-anthropic-request';
import { toVertexClaudeModelId } from './vertex-claude-model-id';
import { buildVertexHeaders, buildVertexUrl } from './vertex-endpoint';

/** The Messages API version Vertex AI speaks, named in the body (https://docs.anthropic.com/en/api/claude-on-vertex-ai). */
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

export type VertexClaudeRequest = Omit<AnthropicMessagesRequest, 'model'> & { anthropic_version: string };

/** Anthropic's Messages body as Vertex AI takes it: the model moves to the URL, the version into the body. */
export function convertToVertexClaudeRequest(input: CanonicalChatInput): VertexClaudeRequest {
  const { model: _inTheUrl, ...body } = convertToAnthropicRequest(input);
  return { anthropic_version: VERTEX_ANTHROPIC_VERSION, ...body };
}

/**
 * Claude on Vertex AI: `publishers/anthropic/models/{id}:rawPredict`, or `:streamRawPredict` for a stream
 * (whose body also says `stream: true`); answers, streams and errors are Anthropic's. The client's
 * anthropic-beta header goes along, as Vertex takes betas there.
 */
export function buildVertexClaudeRequest(input: CanonicalChatInput): UpstreamHttpRequest {
  const { channel, clientHeaders, upstreamModel, isStream } = input;
  const beta = clientHeaders['anthropic-beta'];
  const method = isStream ? 'streamRawPredict' : 'rawPredict';
  return {
    url: buildVertexUrl(channel, 'anthropic', toVertexClaudeModelId(upstreamModel), method),
    method: 'POST',
    headers: { ...buildVertexHeaders(channel), ...(beta ? { 'anthropic-beta': beta } : {}) },
    body: JSON.stringify(convertToVertexClaudeRequest(input)),
  };
}
